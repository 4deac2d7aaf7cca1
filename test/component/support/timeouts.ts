// Component tests start local servers (and sometimes a tsx child process): 30 s each.
// `testTimeout` inside a jest project entry is ignored, so each tier sets its own here.
jest.setTimeout(30_000);
