// Ends every jest run with one plain line of counts, the form CI logs are read by.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`);
  }
}

module.exports = SummaryReporter;
