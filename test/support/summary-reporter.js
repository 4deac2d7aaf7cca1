/**
 * Jest reporter that ends the run with one plain line CI can parse:
 *   jest: N passed, N failed, N skipped
 * ("skipped" counts skipped and todo tests). Listed next to 'default' in jest.config.js.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    // A suite that fails to load (syntax error, failing beforeAll import) has no failed tests;
    // count it as one failure so the line never reads "0 failed" for a broken run.
    const brokenSuites = results.testResults.filter(
      (suite) => suite.testExecError && suite.numFailingTests === 0,
    ).length;
    const failed = results.numFailedTests + brokenSuites;
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

module.exports = SummaryReporter;
