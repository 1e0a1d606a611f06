/*
 * Memory that crosses between the main thread and the pixel thread: what both sides import (a kernel never imports
 * the thread that runs it).
 */

/** Bytes that crossed a thread arrive as a plain Uint8Array: the same memory as a Buffer. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Zeroed bytes in shared memory: they cross to and from the pixel thread without a copy, and stay usable on both sides. */
export function sharedBuffer(length: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(length));
}
