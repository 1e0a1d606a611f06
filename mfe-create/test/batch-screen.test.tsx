import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { CHECK_UNCERTAIN_LABEL } from '../src/batch/BatchScreen';
import { resizeImageToJpeg } from '../src/shared/resize';
import { deferred, renderCreate, requestsTo, testUser } from './support';

jest.mock('../src/shared/resize', () => ({
  ...jest.requireActual('../src/shared/resize'),
  // The resized JPEG of a photo: its own name in bytes, so the uploaded zip shows which photo each entry came from.
  resizeImageToJpeg: jest.fn(async (file: File) => new Blob([`resized ${file.name}`], { type: 'image/jpeg' })),
}));

// userEvent drives up to 200 files through the real zip and form code: seconds on a loaded machine, not milliseconds.
jest.setTimeout(30_000);

const JOB_UUID = '7b0f1c2e-4d5a-4e6f-8a9b-0c1d2e3f4a5b';
const PRESETS = [
  { id: 'p1', preset_name: 'Bright counter', category_name: 'kitchen' },
  { id: 'p2', preset_name: 'Marble top', category_name: 'kitchen' },
  { id: 'p3', preset_name: 'Street style', category_name: 'fashion' },
  { id: 'p4', preset_name: 'Soft shadow', category_name: 'kitchen' },
  { id: 'p5', preset_name: 'Runway', category_name: 'fashion' },
  { id: 'p6', preset_name: 'Linen', category_name: 'fashion' },
];

let objectUrls = 0;
const revoked: string[] = [];

beforeAll(() => {
  // jsdom has no object URLs; each file gets a distinct address as in a browser.
  URL.createObjectURL = () => `blob:preview/${++objectUrls}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});

beforeEach(() => {
  revoked.length = 0;
  jest.mocked(resizeImageToJpeg).mockClear();
});

function photo(name: string, type = 'image/jpeg'): File {
  return new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], name, { type });
}

function zipFile(entries: Record<string, Uint8Array>, name = 'photos.zip'): File {
  return new File([zipSync(entries)], name, { type: 'application/zip' });
}

function renderBatch(options: Parameters<typeof renderCreate>[0] = {}) {
  return renderCreate({
    path: '/productgen#batch',
    ...options,
    api: {
      'GET /style-presets': { body: { success: true, presets: PRESETS } },
      'POST /image-gen/bulk-zip': { body: { bulk_job_uuid: JOB_UUID } },
      'GET /image-gen/bulk-job/7b0f1c2e-4d5a-4e6f-8a9b-0c1d2e3f4a5b': { status: 404, body: { error: 'Not found' } },
      ...options.api,
    },
  });
}

async function addFiles(...files: File[]) {
  await userEvent.upload(await screen.findByLabelText(/Upload product photos or a zip file/), files);
}

function fileInput() {
  return screen.getByLabelText(/Upload product photos or a zip file/);
}

/** The names of the preview grid's images, in order. */
function tileNames(): string[] {
  return screen.queryAllByRole('img').map((image) => image.getAttribute('alt') ?? '');
}

function createBatchButton() {
  return screen.getByRole('button', { name: /^(Create batch|Not enough credits)$/ });
}

function slider() {
  return screen.getByRole('slider', { name: 'Images per product' });
}

/** Every text the progress label showed, in order (a stage can last a single render). */
function recordProgressTexts(): () => string[] {
  const texts: string[] = [];
  const read = () => {
    const text = document.querySelector('[data-testid="batch-progress-text"]')?.textContent;
    if (text && texts[texts.length - 1] !== text) texts.push(text);
  };
  const observer = new MutationObserver(read);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  return () => {
    observer.disconnect();
    return texts;
  };
}

describe('batch tab: choosing images', () => {
  it('starts empty with Create batch disabled; an empty submit says "Please select images or a zip file."', async () => {
    renderBatch();
    await screen.findByText('Your batch is empty');
    expect(createBatchButton()).toBeDisabled();
    expect(fileInput()).toHaveAttribute('multiple');
    expect(fileInput()).toHaveAttribute('accept', expect.stringContaining('application/zip'));
    fireEvent.submit(screen.getByRole('form', { name: 'Batch Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select images or a zip file.');
  });

  it('shows chosen images in the preview grid and removes one', async () => {
    renderBatch();
    await addFiles(photo('mug.jpg'), photo('bowl.png', 'image/png'), photo('cup.webp', 'image/webp'));
    expect(await screen.findByRole('heading', { name: /3 images/ })).toBeInTheDocument();
    expect(tileNames()).toEqual(['mug.jpg', 'bowl.png', 'cup.webp']);
    const bowl = screen.getByRole('img', { name: 'bowl.png' });
    await userEvent.click(screen.getByRole('button', { name: 'Remove bowl.png' }));
    expect(tileNames()).toEqual(['mug.jpg', 'cup.webp']);
    expect(revoked).toEqual([bowl.getAttribute('src')]);
  });

  it('makes duplicate names unique with -1, -2 before the extension, within one addition and across additions', async () => {
    renderBatch();
    await addFiles(photo('mug.jpg'), photo('mug.jpg'));
    await waitFor(() => expect(tileNames()).toEqual(['mug.jpg', 'mug-1.jpg']));
    await addFiles(photo('mug.jpg'), photo('MUG-1.jpg'));
    await waitFor(() => expect(tileNames()).toEqual(['mug.jpg', 'mug-1.jpg', 'mug-2.jpg', 'MUG-1-1.jpg']));
  });

  it('refuses a file that is neither an image nor a zip with "Please upload a valid zip file."', async () => {
    renderBatch();
    const zone = await screen.findByTestId('batch-drop-zone');
    fireEvent.drop(zone, { dataTransfer: { files: [new File(['x'], 'notes.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please upload a valid zip file.');
    expect(screen.getByText('Your batch is empty')).toBeInTheDocument();
  });

  it('reads a zip in the browser: only .jpg/.jpeg/.png/.webp entries count, folders dropped from the names', async () => {
    renderBatch();
    const image = new Uint8Array([0xff, 0xd8, 0xff]);
    await addFiles(
      zipFile({
        'shop/': new Uint8Array(),
        'shop/kettle.JPG': image,
        'shop/lamp.jpeg': image,
        'shop/deep/vase.png': image,
        'shop/chair.webp': image,
        '__MACOSX/shop/._kettle.JPG': image,
        'shop/._lamp.jpeg': image,
        'shop/Thumbs.db': image,
        'shop/notes.txt': strToU8('not a photo'),
        'shop/more.zip': zipSync({ 'inner.jpg': image }),
      }),
    );
    await waitFor(() => expect(tileNames()).toEqual(['kettle.JPG', 'lamp.jpeg', 'vase.png', 'chair.webp']));
  });

  it('says "Failed to read the zip file. It might be corrupted." for an unreadable zip', async () => {
    renderBatch();
    const truncated = zipSync({ 'a.jpg': new Uint8Array(2000).fill(7) }).subarray(0, 60);
    await addFiles(new File([truncated], 'broken.zip', { type: 'application/x-zip-compressed' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to read the zip file. It might be corrupted.');
    expect(screen.getByText('Your batch is empty')).toBeInTheDocument();
  });

  it('refuses an addition past 200 images, naming how many there are and how many were added', async () => {
    renderBatch();
    await addFiles(...Array.from({ length: 199 }, (_, index) => photo(`p${index}.jpg`)));
    expect(await screen.findByRole('heading', { name: /199 images/ })).toBeInTheDocument();
    await addFiles(photo('a.jpg'), photo('b.jpg'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You can upload a maximum of 200 images. You currently have 199 and tried to add 2.',
    );
    await addFiles(photo('a.jpg'));
    expect(await screen.findByRole('heading', { name: /200 images/ })).toBeInTheDocument();
  });
});

describe('batch tab: the limits GET /configlist serves', () => {
  it('bounds the batch, the per-product count and the presets by them', async () => {
    const limits = { maxImagesPerGeneration: 3, maxPresetsPerGeneration: 2, maxBatchImages: 2 };
    const { requests } = renderBatch({
      user: testUser({ credits: 100 }),
      api: { 'GET /configlist': { body: { limits } } },
    });
    await waitFor(() => expect(requests.some((request) => request.path === '/configlist')).toBe(true));
    await addFiles(photo('a.jpg'), photo('b.jpg'));
    expect(await screen.findByRole('heading', { name: /2 images/ })).toHaveTextContent(/of at most 2$/);
    await addFiles(photo('c.jpg'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You can upload a maximum of 2 images. You currently have 2 and tried to add 1.',
    );
    expect(slider()).toHaveAttribute('max', '3');
    expect(slider()).toHaveValue('3');

    const checklist = within(await screen.findByRole('group', { name: 'Use style presets' }));
    const box = (name: string) => checklist.getByRole('checkbox', { name: new RegExp(`^${name}`) });
    await userEvent.click(await checklist.findByRole('checkbox', { name: /^Bright counter/ }));
    await userEvent.click(box('Street style'));
    expect(box('Marble top')).toBeDisabled();
    expect(checklist.getByText(/2 of 2 chosen/)).toBeInTheDocument();
  });
});

describe('batch tab: count, presets and credits', () => {
  it('states the credits needed as images × per-product count and reads "Not enough credits" when short', async () => {
    // 12 credits: the slider starts at 5, so 3 images need 15.
    renderBatch();
    await addFiles(photo('a.jpg'), photo('b.jpg'), photo('c.jpg'));
    await screen.findByRole('heading', { name: /3 images/ });
    expect(slider()).toHaveValue('5');
    expect(createBatchButton()).toHaveTextContent('Not enough credits');
    expect(createBatchButton()).toBeDisabled();
    expect(screen.getByTestId('batch-cost')).toHaveTextContent(
      'You need 15 credits (3 images × 5 per product) and have 12.',
    );
    expect(screen.getByRole('link', { name: 'Get more credits' })).toHaveAttribute('href', '/pricing');

    fireEvent.change(slider(), { target: { value: '2' } });
    expect(createBatchButton()).toHaveTextContent('Create batch');
    expect(createBatchButton()).toBeEnabled();
    expect(screen.getByTestId('batch-cost')).toHaveTextContent(
      'Uses 6 credits (3 images × 2 per product) · You have 12',
    );
  });

  it('lists every preset with its category; chosen presets disable the slider and set the count; at most 5', async () => {
    renderBatch({ user: testUser({ credits: 100 }) });
    await addFiles(photo('a.jpg'), photo('b.jpg'));
    const checklist = within(await screen.findByRole('group', { name: 'Use style presets' }));
    const box = (name: string) => checklist.getByRole('checkbox', { name: new RegExp(`^${name}`) });
    expect(await checklist.findByText('Bright counter')).toBeInTheDocument();
    expect(box('Street style').closest('label')).toHaveTextContent('Street style · Fashion');
    expect(slider()).toBeEnabled();

    await userEvent.click(box('Bright counter'));
    await userEvent.click(box('Street style'));
    expect(slider()).toBeDisabled();
    expect(slider()).toHaveValue('2');
    expect(screen.getByText(/Presets apply only to products of their category/)).toBeInTheDocument();
    expect(screen.getByTestId('batch-cost')).toHaveTextContent('Uses 4 credits (2 images × 2 per product)');

    for (const name of ['Marble top', 'Soft shadow', 'Runway']) await userEvent.click(box(name));
    expect(slider()).toHaveValue('5');
    expect(box('Linen')).toBeDisabled();
    await userEvent.click(box('Runway'));
    expect(box('Linen')).toBeEnabled();
  });
});

describe('batch tab: Create batch', () => {
  it('resizes, zips and uploads with the stages shown, then opens the job page', async () => {
    const upload = deferred<{ body: unknown }>();
    const firstResize = deferred<Blob>();
    jest
      .mocked(resizeImageToJpeg)
      .mockImplementationOnce(() => firstResize.promise)
      .mockImplementation(async (file) => new Blob([`resized ${(file as File).name}`], { type: 'image/jpeg' }));
    const { requests } = renderBatch({
      api: { 'POST /image-gen/bulk-zip': () => upload.promise },
    });
    await addFiles(photo('mug.jpg'), photo('bowl.png', 'image/png'), photo('mug.jpg'));
    await screen.findByRole('heading', { name: /3 images/ });
    fireEvent.change(slider(), { target: { value: '2' } });
    const progressTexts = recordProgressTexts();

    await userEvent.click(createBatchButton());
    expect(await screen.findByTestId('batch-progress-text')).toHaveTextContent('Resizing images...');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '5');
    expect(createBatchButton()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove mug.jpg' })).toBeDisabled();
    await act(async () => firstResize.resolve(new Blob(['resized mug.jpg'], { type: 'image/jpeg' })));

    // The fake upload channel reports half the body and then all of it before the server's answer.
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '99'));
    expect(screen.getByTestId('batch-progress-text')).toHaveTextContent('Uploading...');
    await act(async () => upload.resolve({ body: { bulk_job_uuid: JOB_UUID } }));

    expect(await screen.findByRole('heading', { name: 'Batch Job' })).toBeInTheDocument();
    expect(progressTexts()).toEqual(['Resizing images...', 'Zipping files...', 'Uploading...']);

    const [request] = requestsTo(requests, 'POST', '/image-gen/bulk-zip');
    const form = request?.body as FormData;
    expect(form.get('numGenerates')).toBe('2');
    expect(form.has('presets')).toBe(false);
    const zip = form.get('zipFile') as File;
    expect(zip.name).toBe('images.zip');
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, strFromU8(data)]))).toEqual({
      'mug.jpg': 'resized mug.jpg',
      'bowl.png': 'resized bowl.png',
      'mug-1.jpg': 'resized mug.jpg',
    });
  });

  it('sends the chosen presets as a JSON list with the count equal to their number', async () => {
    const { requests } = renderBatch({ user: testUser({ credits: 100 }) });
    await addFiles(photo('a.jpg'));
    const checklist = within(await screen.findByRole('group', { name: 'Use style presets' }));
    await userEvent.click(await checklist.findByRole('checkbox', { name: /^Marble top/ }));
    await userEvent.click(checklist.getByRole('checkbox', { name: /^Runway/ }));
    await userEvent.click(createBatchButton());
    await screen.findByRole('heading', { name: 'Batch Job' });
    const form = requestsTo(requests, 'POST', '/image-gen/bulk-zip')[0]?.body as FormData;
    expect(form.get('numGenerates')).toBe('2');
    expect(form.get('presets')).toBe('["p2","p5"]');
  });

  it('"Check uncertain products before rendering" is on by default and sent either way', async () => {
    const { requests } = renderBatch({ user: testUser({ credits: 100 }) });
    await addFiles(photo('a.jpg'));
    const option = screen.getByRole('checkbox', { name: new RegExp(`^${CHECK_UNCERTAIN_LABEL}`) });
    expect(option).toBeChecked();
    await userEvent.click(createBatchButton());
    await screen.findByRole('heading', { name: 'Batch Job' });
    expect((requestsTo(requests, 'POST', '/image-gen/bulk-zip')[0]?.body as FormData).get('checkUncertain')).toBe(
      'true',
    );
  });

  it('a seller who prefers speed turns the check off: every product renders at once', async () => {
    const { requests } = renderBatch({ user: testUser({ credits: 100 }) });
    await addFiles(photo('a.jpg'));
    await userEvent.click(screen.getByRole('checkbox', { name: new RegExp(`^${CHECK_UNCERTAIN_LABEL}`) }));
    await userEvent.click(createBatchButton());
    await screen.findByRole('heading', { name: 'Batch Job' });
    expect((requestsTo(requests, 'POST', '/image-gen/bulk-zip')[0]?.body as FormData).get('checkUncertain')).toBe(
      'false',
    );
  });

  it("shows the server's message when the upload is refused, and the batch can be sent again", async () => {
    renderBatch({
      api: {
        'POST /image-gen/bulk-zip': [
          { status: 402, body: { code: 402, error: 'Not enough credits: this batch needs 6 credits.' } },
          { status: 500 },
        ],
      },
    });
    await addFiles(photo('a.jpg'), photo('b.jpg'));
    fireEvent.change(await screen.findByRole('slider', { name: 'Images per product' }), { target: { value: '3' } });
    await userEvent.click(createBatchButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Not enough credits: this batch needs 6 credits.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(createBatchButton()).toBeEnabled();

    await userEvent.click(createBatchButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('An error occurred during bulk upload.'));
    expect(tileNames()).toEqual(['a.jpg', 'b.jpg']);
  });

  it('names a photo the browser cannot decode and uploads nothing', async () => {
    jest.mocked(resizeImageToJpeg).mockRejectedValueOnce(new Error('decode failed'));
    const { requests } = renderBatch();
    await addFiles(photo('broken.jpg'));
    fireEvent.change(await screen.findByRole('slider', { name: 'Images per product' }), { target: { value: '1' } });
    await userEvent.click(createBatchButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '"broken.jpg" could not be read as an image. Remove it and try again.',
    );
    expect(requestsTo(requests, 'POST', '/image-gen/bulk-zip')).toHaveLength(0);
  });
});
