// The tools' models kept in the browser (IndexedDB, which works on any host the site is opened at; Cache Storage
// needs a secure context) under their sha256, so a second visit reads a model from disk instead of the network. A
// new build's model has a new hash: the entries no current model uses are deleted when a model is stored.

const DATABASE = 'productgen-tool-models';
const STORE = 'models';

function request<T>(pending: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    pending.onsuccess = () => resolve(pending.result);
    pending.onerror = () => reject(pending.error ?? new Error('IndexedDB request failed'));
  });
}

function openDatabase(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  const opening = indexedDB.open(DATABASE, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
  return request(opening);
}

/** The model with that sha256, or undefined when it is not stored (or storage is unavailable). */
export async function readCachedModel(sha256: string): Promise<ArrayBuffer | undefined> {
  try {
    const database = await openDatabase();
    try {
      const value: unknown = await request(database.transaction(STORE).objectStore(STORE).get(sha256));
      return value instanceof ArrayBuffer ? value : undefined;
    } finally {
      database.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Stores a model under its sha256 and drops the entries of models no longer in `current`. It keeps a copy of the
 * bytes, taken before it returns, so the caller may transfer its own buffer to a worker at once. Failures (private
 * browsing, a full disk) only mean the next visit fetches the model again.
 */
export function storeModel(sha256: string, bytes: ArrayBuffer, current: readonly string[]): Promise<void> {
  const copy = bytes.slice(0);
  return openDatabase()
    .then(
      (database) =>
        new Promise<void>((resolve, reject) => {
          const transaction = database.transaction(STORE, 'readwrite');
          const store = transaction.objectStore(STORE);
          store.put(copy, sha256);
          store.getAllKeys().onsuccess = (event) => {
            const keys = (event.target as IDBRequest<IDBValidKey[]>).result;
            for (const key of keys) if (typeof key === 'string' && !current.includes(key)) store.delete(key);
          };
          transaction.oncomplete = () => {
            database.close();
            resolve();
          };
          transaction.onerror = () => {
            database.close();
            reject(transaction.error ?? new Error('storing the model failed'));
          };
        }),
    )
    .catch(() => undefined);
}
