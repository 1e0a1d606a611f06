// Defaults that work in a browser and degrade to harmless in-memory stand-ins during server-side
// prerendering (mfe-marketing renders with react-dom/server, where window and document do not exist).

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function hasDocument(): boolean {
  return typeof document !== 'undefined';
}

export function defaultStorage(): KeyValueStorage {
  if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  const memory = new Map<string, string>();
  return {
    getItem: (key) => memory.get(key) ?? null,
    setItem: (key, value) => void memory.set(key, value),
    removeItem: (key) => void memory.delete(key),
  };
}

export function defaultFetch(): typeof fetch {
  // Wrapped so fetch is never called with a foreign `this` (browsers throw "Illegal invocation").
  return (input, init) => fetch(input, init);
}

export function pageIsHttps(): boolean {
  return typeof window !== 'undefined' && window.location.protocol === 'https:';
}
