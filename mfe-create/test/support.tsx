// Shared set-up of the create screen's component tests: a signed-in user, a scripted API and the screen's
// route next to stand-ins for the pages it sends people to.
import { act } from '@testing-library/react';
import { fakeApiClient, renderAt, TEST_USER, type RecordedRequest } from '@productgen/mf-shared/test-support';
import type { GeneratedImage, GenerationStatus, User } from '@productgen/platform-client';
import { routes } from '../src/routes';

export const RESIZED_PHOTO = 'data:image/jpeg;base64,UkVTSVpFRA==';
export const CATEGORIES = [
  { id: 'kitchen', name: 'Kitchenware' },
  { id: 'fashion', name: 'Fashion' },
];
export const ANALYSIS = { category: 'kitchen', object: 'coffee mug', generation_uuid: 'analysis-uuid' };
export const GENERATION_UUID = 'gen-uuid-1';

type Routes = Parameters<typeof fakeApiClient>[0];

export function testUser(overrides: Partial<Omit<User, 'flags'>> & { flags?: Partial<User['flags']> } = {}): User {
  return { ...TEST_USER, ...overrides, flags: { ...TEST_USER.flags, ...overrides.flags } } as User;
}

export function generatedImage(id: string, fixesDone = true): GeneratedImage {
  return {
    id,
    input_url: `/files/${id}-in.jpg`,
    output_url: `/files/${id}.jpg`,
    metadata: { fixes_done: [true, fixesDone] },
  };
}

export function statusReply(overrides: Partial<GenerationStatus> = {}) {
  return {
    body: { analyzed: true, images: [], gen_error: null, status: 'processing', has_watermark: false, ...overrides },
  };
}

export function renderCreate({
  user = testUser(),
  api = {},
  path = '/productgen',
}: { user?: User | null; api?: Routes; path?: string } = {}) {
  const { client, requests } = fakeApiClient(
    {
      'GET /auth/me': user ? { body: user } : { status: 401 },
      'GET /image-gen/categories': { body: CATEGORIES },
      'POST /image-gen/category': { body: ANALYSIS },
      'GET /style-presets': { body: { success: true, presets: [] } },
      'POST /imageGenFromId': { body: { generation_uuid: GENERATION_UUID, status: 'pending' } },
      ...api,
    },
    { signedIn: user !== null },
  );
  const tree = [
    ...routes,
    { path: '/pricing', element: <h1>Pricing page</h1> },
    { path: '/', element: <h1>Landing page</h1> },
  ];
  const view = renderAt(tree, path, client);
  return { client, requests, view };
}

/** Runs timers (the 2 s polls) and lets the fake API's answers settle. */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
  await act(async () => {
    await jest.advanceTimersByTimeAsync(0);
  });
}

export function requestsTo(requests: RecordedRequest[], method: string, path: string): RecordedRequest[] {
  return requests.filter((request) => request.method === method && request.path === path);
}

export function photoFile(name = 'mug.jpg', type = 'image/jpeg'): File {
  return new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type });
}

/** A promise the test settles when it chooses: for answers that arrive at a chosen moment. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
