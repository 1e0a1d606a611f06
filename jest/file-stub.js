// Image imports in jsdom tests: webpack's asset modules give a URL string, so any string stands in for it.
module.exports = 'test-file-stub';
