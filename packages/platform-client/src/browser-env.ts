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

/** One request whose body is sent with progress reports: what fetch cannot do and XMLHttpRequest can. */
export interface UploadRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: FormData;
  /** Bytes of the body sent so far and in all. */
  onProgress: (loaded: number, total: number) => void;
}

export interface UploadAnswer {
  status: number;
  text: string;
}

export type UploadImpl = (request: UploadRequest) => Promise<UploadAnswer>;

/** XMLHttpRequest's upload events are the browser's only report of how much of a request body has gone out. */
export function xhrUpload({ url, method, headers, body, onProgress }: UploadRequest): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    // The session cookie goes along, as with fetch's credentials: 'include'.
    request.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => resolve({ status: request.status, text: request.responseText });
    // Same as fetch: a network failure rejects with a TypeError.
    request.onerror = () => reject(new TypeError('Failed to fetch'));
    request.onabort = () => reject(new TypeError('The upload was aborted'));
    request.send(body);
  });
}

export function pageIsHttps(): boolean {
  return typeof window !== 'undefined' && window.location.protocol === 'https:';
}
