// Browser tests wait for what a user waits for (findBy…, waitFor) with bounds generous enough for a loaded CI
// machine: with Testing Library's 1-s default and jest's 5-s test timeout, the create-screen suites failed on a
// 2-core machine at load 15 (every test waiting on a screen that was still rendering), and passed when quiet.
const { configure } = require('@testing-library/dom');

configure({ asyncUtilTimeout: 10_000 });
