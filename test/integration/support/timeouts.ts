// Integration tests run workflows on the real Temporal dev server: 120 s each.
// `testTimeout` inside a jest project entry is ignored, so each tier sets its own here.
jest.setTimeout(120_000);
