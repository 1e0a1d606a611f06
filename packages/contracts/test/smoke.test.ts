import { placeholderForToolingCheck } from '@productgen/contracts';
test('workspace packages resolve to their sources', () => {
  expect(placeholderForToolingCheck).toBe(1);
});
