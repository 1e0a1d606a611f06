import { xhrUpload } from '../src/browser-env';

/** The part of XMLHttpRequest xhrUpload drives, recording what it was told and letting the test play the network. */
class RecordingXhr {
  static last: RecordingXhr | null = null;
  opened: [string, string] | null = null;
  headers: Record<string, string> = {};
  withCredentials = false;
  sent: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    RecordingXhr.last = this;
  }
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
}

const realXhr = globalThis.XMLHttpRequest;

beforeEach(() => {
  (globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = RecordingXhr;
});

afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
});

function start(onProgress: (loaded: number, total: number) => void = () => {}) {
  const body = new FormData();
  const answer = xhrUpload({
    url: 'https://api.example/image-gen/bulk-zip',
    method: 'POST',
    headers: { 'X-Request-Id': 'req-1' },
    body,
    onProgress,
  });
  const xhr = RecordingXhr.last!;
  return { answer, xhr, body };
}

describe('xhrUpload: the upload channel on XMLHttpRequest', () => {
  it('sends the body with the headers, reports measurable upload progress and resolves with the answer', async () => {
    const reports: Array<[number, number]> = [];
    const { answer, xhr, body } = start((loaded, total) => reports.push([loaded, total]));
    expect(xhr.opened).toEqual(['POST', 'https://api.example/image-gen/bulk-zip']);
    expect(xhr.headers).toEqual({ 'X-Request-Id': 'req-1' });
    // The session cookie goes along, as fetch's credentials: 'include' sends it.
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.sent).toBe(body);

    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 10, total: 0 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    xhr.status = 402;
    xhr.responseText = '{"error":"Not enough credits"}';
    xhr.onload?.();

    await expect(answer).resolves.toEqual({ status: 402, text: '{"error":"Not enough credits"}' });
    expect(reports).toEqual([
      [40, 100],
      [100, 100],
    ]);
  });

  it('rejects with a TypeError on a network failure, as fetch does', async () => {
    const { answer, xhr } = start();
    xhr.onerror?.();
    await expect(answer).rejects.toThrow(TypeError);
  });
});
