module.exports = require('../../jest/browser-project')(__dirname);
