// Each test renders the chart with Helm or talks to the API server through kubectl: a few seconds
// each on a loaded machine, and the API server's start in the apply file's beforeAll.
jest.setTimeout(120_000);
