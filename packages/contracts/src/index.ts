export const placeholderForToolingCheck = 1;
