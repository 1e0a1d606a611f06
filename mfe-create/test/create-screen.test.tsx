import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEST_API } from '@productgen/mf-shared/test-support';
import { MAX_POLLS } from '../src/single/progress';
import { UNAVAILABLE_IMAGE } from '../src/shared/images';
import {
  ANALYSIS,
  GENERATION_UUID,
  RESIZED_PHOTO,
  advance,
  generatedImage,
  photoFile,
  renderCreate,
  requestsTo,
  statusReply,
  testUser,
  deferred,
} from './support';

jest.mock('../src/shared/resize', () => ({
  ...jest.requireActual('../src/shared/resize'),
  resizeImageFile: jest.fn(async () => 'data:image/jpeg;base64,UkVTSVpFRA=='),
}));

const OUT_OF_CREDITS = 'Out of credits! Top up to keep the magic going.';

let user: ReturnType<typeof userEvent.setup>;

beforeEach(() => {
  jest.useFakeTimers();
  user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
});

afterEach(() => {
  jest.useRealTimers();
});

async function uploadPhoto() {
  await user.upload(await screen.findByLabelText(/Upload a product photo/), photoFile());
}

async function uploadAndAnalyse() {
  await uploadPhoto();
  expect(await screen.findByTestId('detected-product')).toHaveTextContent('coffee mug');
}

function createButton() {
  return screen.getByRole('button', { name: /^(Create|Creating\.\.\.)$|Out of credits/ });
}

/** Create, and let the start request be answered (polling counts from there). */
async function startCreating() {
  await user.click(createButton());
  await advance(0);
}

describe('create screen: access and tabs', () => {
  it('sends a signed-out visitor to / once the session check has answered', async () => {
    renderCreate({ user: null });
    expect(await screen.findByRole('heading', { name: 'Landing page' })).toBeInTheDocument();
  });

  it('shows Single Image by default and Batch Create for #batch; the tabs navigate by fragment', async () => {
    renderCreate();
    await screen.findByTestId('upload-area');
    const single = screen.getByRole('tab', { name: 'Single Image' });
    expect(single).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Batch Create' }));
    expect(screen.getByRole('tab', { name: 'Batch Create' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(/up to 200 product photos, or one zip file/)).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Single Image' }));
    expect(screen.getByRole('tab', { name: 'Single Image' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByText(/up to 200 product photos/)).not.toBeInTheDocument();
  });

  it('opens on the Batch Create tab from /productgen#batch', async () => {
    renderCreate({ path: '/productgen#batch' });
    expect(await screen.findByText(/up to 200 product photos, or one zip file/)).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Batch Create' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('upload-area')).not.toBeVisible();
  });

  it('offers Take Photo (rear camera) and Choose from Gallery, images only', async () => {
    renderCreate();
    const camera = await screen.findByLabelText('Take Photo');
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(camera).toHaveAttribute('accept', 'image/*');
    expect(screen.getByLabelText('Choose from Gallery')).toHaveAttribute('accept', 'image/*');
    expect(screen.getByLabelText('Choose from Gallery')).not.toHaveAttribute('capture');
  });
});

describe('create screen: photo and analysis', () => {
  it('shows "Analyzing image..." and then the detected Product and Category', async () => {
    const analysis = deferred<{ body: unknown }>();
    const { requests } = renderCreate({ api: { 'POST /image-gen/category': () => analysis.promise } });
    await uploadPhoto();
    expect(await screen.findByText('Analyzing image...')).toBeInTheDocument();
    expect(screen.getByAltText('Your product photo')).toHaveAttribute('src', RESIZED_PHOTO);
    expect(createButton()).toBeDisabled();
    await act(async () => analysis.resolve({ body: ANALYSIS }));
    expect(await screen.findByTestId('detected-product')).toHaveTextContent('coffee mug');
    expect(screen.getByTestId('detected-category')).toHaveTextContent('Kitchenware');
    expect(screen.queryByText('Analyzing image...')).not.toBeInTheDocument();
    expect(createButton()).toBeEnabled();
    // The photo goes to analysis as bare base64, without the data-URL prefix, with its file name (a hint for the name).
    expect(requestsTo(requests, 'POST', '/image-gen/category')[0]?.json).toEqual({
      image: 'UkVTSVpFRA==',
      filename: 'mug.jpg',
    });
  });

  it('empties product and category and keeps Create disabled when analysis fails', async () => {
    renderCreate({ api: { 'POST /image-gen/category': { status: 422, body: { error: 'No product found' } } } });
    await uploadPhoto();
    expect(await screen.findByRole('alert')).toHaveTextContent('No product found');
    expect(screen.getByTestId('detected-product')).toBeEmptyDOMElement();
    expect(screen.getByTestId('detected-category')).toBeEmptyDOMElement();
    expect(createButton()).toBeDisabled();
  });

  it('keeps Create disabled for a category it does not know', async () => {
    renderCreate({ api: { 'POST /image-gen/category': { body: { ...ANALYSIS, category: 'garden' } } } });
    await uploadAndAnalyse();
    expect(createButton()).toBeDisabled();
  });

  it('refuses a file that is not an image without analysing it', async () => {
    const { requests } = renderCreate();
    const area = await screen.findByTestId('upload-area');
    fireEvent.drop(area, { dataTransfer: { files: [photoFile('notes.txt', 'text/plain')] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please choose an image file.');
    expect(requestsTo(requests, 'POST', '/image-gen/category')).toHaveLength(0);
  });
});

describe('create screen: options', () => {
  const presets = ['Marble', 'Beach', 'Studio', 'Forest', 'Neon', 'Linen'].map((name, index) => ({
    id: `p${index + 1}`,
    preset_name: name,
    category_name: 'kitchen',
  }));

  it('defaults the Number of Images to the credits clamped to 1..5', async () => {
    renderCreate({ user: testUser({ credits: 3 }) });
    await uploadAndAnalyse();
    expect(screen.getByRole('slider', { name: 'Number of Images' })).toHaveValue('3');
    expect(screen.getByRole('slider', { name: 'Number of Images' })).toHaveAttribute('min', '1');
    expect(screen.getByRole('slider', { name: 'Number of Images' })).toHaveAttribute('max', '5');
  });

  it('allows 5 presets at most; with presets the slider is disabled and the count follows them', async () => {
    const { requests } = renderCreate({
      api: { 'GET /style-presets': { body: { success: true, presets } } },
    });
    await uploadAndAnalyse();
    const slider = screen.getByRole('slider', { name: 'Number of Images' });
    expect(slider).toHaveValue('5');
    expect(slider).toBeEnabled();
    await user.click(await screen.findByRole('checkbox', { name: 'Marble' }));
    await user.click(screen.getByRole('checkbox', { name: 'Beach' }));
    expect(slider).toBeDisabled();
    expect(slider).toHaveValue('2');
    for (const name of ['Studio', 'Forest', 'Neon']) await user.click(screen.getByRole('checkbox', { name }));
    expect(screen.getByRole('checkbox', { name: 'Linen' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Neon' })).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Neon' }));
    expect(screen.getByRole('checkbox', { name: 'Linen' })).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Marble' }));
    await user.click(screen.getByRole('checkbox', { name: 'Beach' }));
    expect(slider).toHaveValue('2');
    await user.click(createButton());
    await advance(0);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')[0]?.json).toEqual({
      id: ANALYSIS.generation_uuid,
      numGenerates: 2,
      presets: ['p3', 'p4'],
    });
  });

  it('folds the Options panel away and back', async () => {
    renderCreate();
    const toggle = await screen.findByRole('button', { name: 'Options' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('slider', { name: 'Number of Images' })).not.toBeInTheDocument();
  });

  it('sends the chosen Number of Images without presets', async () => {
    const { requests } = renderCreate();
    await uploadAndAnalyse();
    fireEvent.change(screen.getByRole('slider', { name: 'Number of Images' }), { target: { value: '2' } });
    await user.click(createButton());
    await advance(0);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')[0]?.json).toEqual({
      id: ANALYSIS.generation_uuid,
      numGenerates: 2,
    });
  });
});

describe('create screen: credits', () => {
  it('reads "Out of credits!..." with fewer credits than the count and goes to /pricing', async () => {
    renderCreate({ user: testUser({ credits: 2 }) });
    await uploadAndAnalyse();
    expect(createButton()).toHaveTextContent(/^Create$/);
    fireEvent.change(screen.getByRole('slider', { name: 'Number of Images' }), { target: { value: '4' } });
    expect(createButton()).toHaveTextContent(OUT_OF_CREDITS);
    await user.click(createButton());
    expect(await screen.findByRole('heading', { name: 'Pricing page' })).toBeInTheDocument();
  });

  it('is out of credits straight away with none left', async () => {
    renderCreate({ user: testUser({ credits: 0 }) });
    expect(await screen.findByRole('button', { name: OUT_OF_CREDITS })).toBeEnabled();
  });
});

describe('create screen: first generation', () => {
  it('shows the simplified screen: no options, 5 images, "Click to start!"', async () => {
    const { requests } = renderCreate({ user: testUser({ credits: 10, flags: { is_first_generation: true } }) });
    expect(await screen.findByText('Click to start!')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Options' })).not.toBeInTheDocument();
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    await uploadAndAnalyse();
    expect(screen.getByText('Click to start!')).toBeInTheDocument();
    await user.click(createButton());
    await advance(0);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')[0]?.json).toEqual({
      id: ANALYSIS.generation_uuid,
      numGenerates: 5,
    });
    expect(screen.queryByText('Click to start!')).not.toBeInTheDocument();
    expect(requestsTo(requests, 'GET', '/style-presets')).toHaveLength(0);
  });
});

describe('create screen: working and results', () => {
  it('walks the progress texts, shows the results and refreshes the credits', async () => {
    const started = deferred<{ body: unknown }>();
    const polls = [
      statusReply(),
      statusReply(),
      statusReply({ images: [generatedImage('a', false)] }),
      statusReply({ status: 'completed', images: [generatedImage('a'), generatedImage('b', false)] }),
      statusReply({ status: 'completed', images: [generatedImage('a'), generatedImage('b')] }),
    ];
    const { requests } = renderCreate({
      api: { 'POST /imageGenFromId': () => started.promise, 'GET /image-gen/status/gen-uuid-1': polls },
    });
    await uploadAndAnalyse();
    await user.click(createButton());
    expect(screen.getByTestId('progress-text')).toHaveTextContent('Uploading photo...');
    expect(createButton()).toHaveTextContent('Creating...');
    expect(createButton()).toBeDisabled();
    await act(async () => started.resolve({ body: { generation_uuid: GENERATION_UUID, status: 'pending' } }));
    expect(screen.getByTestId('progress-text')).toHaveTextContent('Analyzing product...');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');

    await advance(1999);
    expect(requestsTo(requests, 'GET', '/image-gen/status/gen-uuid-1')).toHaveLength(0);
    await advance(1);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '18');
    expect(screen.getByTestId('progress-text')).toHaveTextContent('Analyzing product...');
    await advance(2000);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '22');
    expect(screen.getByTestId('progress-text')).toHaveTextContent(/^[A-Z][a-z ]+\.\.\. 22%$/);

    await advance(2000);
    expect(screen.getByRole('button', { name: 'Variation 1' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByTestId('fixes-overlay')).toHaveLength(2);
    expect(screen.getAllByTestId('variation-placeholder')).toHaveLength(4);

    await advance(2000);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
    expect(screen.getAllByTestId('fixes-overlay')).toHaveLength(1);
    const authChecksBefore = requestsTo(requests, 'GET', '/auth/me').length;

    await advance(2000);
    expect(screen.queryAllByTestId('fixes-overlay')).toHaveLength(0);
    expect(screen.getByTestId('progress-text')).toHaveTextContent('Finalizing...');
    expect(createButton()).toHaveTextContent(/^Create$/);
    // The top bar's balance comes from the user: it is refetched once the creation has ended.
    expect(requestsTo(requests, 'GET', '/auth/me').length).toBe(authChecksBefore + 1);

    const large = within(screen.getByTestId('selected-image')).getByRole('img');
    expect(large).toHaveAttribute('src', `${TEST_API}/files/a.jpg`);
    fireEvent.load(large);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `${TEST_API}/download/gen-uuid-1/image/0`,
    );
    expect(screen.getByRole('link', { name: 'Download All' })).toHaveAttribute(
      'href',
      `${TEST_API}/download/gen-uuid-1/batch`,
    );
    await user.click(screen.getByRole('button', { name: 'Variation 2' }));
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `${TEST_API}/download/gen-uuid-1/image/1`,
    );
    await advance(10_000);
    expect(requestsTo(requests, 'GET', '/image-gen/status/gen-uuid-1')).toHaveLength(5);
  });

  it('keeps the selected variation when the images refresh', async () => {
    renderCreate({
      api: {
        'GET /image-gen/status/gen-uuid-1': [
          statusReply({ images: [generatedImage('a', false), generatedImage('b', false)] }),
          statusReply({ images: [generatedImage('a'), generatedImage('b'), generatedImage('c', false)] }),
        ],
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    await user.click(screen.getByRole('button', { name: 'Variation 2' }));
    await advance(2000);
    expect(screen.getAllByRole('button', { name: /^Variation \d$/ })).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Variation 2' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(screen.getByTestId('selected-image')).getByRole('img')).toHaveAttribute(
      'src',
      `${TEST_API}/files/b.jpg`,
    );
  });

  it('shows a plain tile for an image address that cannot be used and still finishes the creation', async () => {
    const unusable = { ...generatedImage('a'), output_url: 'javascript:alert(1)' };
    renderCreate({
      api: { 'GET /image-gen/status/gen-uuid-1': statusReply({ images: [unusable, generatedImage('b')] }) },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);

    const large = within(screen.getByTestId('selected-image')).getByRole('img');
    expect(large).toHaveAttribute('src', UNAVAILABLE_IMAGE);
    const secondThumb = within(screen.getByRole('button', { name: 'Variation 2' })).getByRole('presentation');
    expect(secondThumb).toHaveAttribute('src', `${TEST_API}/files/b.jpg`);
  });

  it('stops after 60 polls with "Image creation timed out. Please try again."', async () => {
    const { requests } = renderCreate({ api: { 'GET /image-gen/status/gen-uuid-1': statusReply() } });
    await uploadAndAnalyse();
    await startCreating();
    for (let poll = 1; poll < MAX_POLLS; poll += 1) await advance(2000);
    expect(requestsTo(requests, 'GET', '/image-gen/status/gen-uuid-1')).toHaveLength(MAX_POLLS - 1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '99');
    await advance(2000);
    expect(screen.getByRole('alert')).toHaveTextContent('Image creation timed out. Please try again.');
    expect(createButton()).toBeEnabled();
    await advance(20_000);
    expect(requestsTo(requests, 'GET', '/image-gen/status/gen-uuid-1')).toHaveLength(MAX_POLLS);
  });

  it('shows gen_error from the status answer', async () => {
    renderCreate({
      api: {
        'GET /image-gen/status/gen-uuid-1': statusReply({ status: 'failed', gen_error: 'Rendering failed.' }),
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    expect(screen.getByRole('alert')).toHaveTextContent('Rendering failed.');
  });

  it('shows "An error while fetching created images" when polling breaks, and stops polling', async () => {
    const { requests } = renderCreate({
      api: {
        'GET /image-gen/status/gen-uuid-1': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    expect(screen.getByRole('alert')).toHaveTextContent('An error while fetching created images');
    await advance(10_000);
    expect(requestsTo(requests, 'GET', '/image-gen/status/gen-uuid-1')).toHaveLength(1);
  });

  it('shows "An error occurred" when the start fails without a message, and the server message otherwise', async () => {
    renderCreate({
      api: {
        'POST /imageGenFromId': [{ status: 500 }, { status: 402, body: { code: 402, error: 'Not enough credits' } }],
      },
    });
    await uploadAndAnalyse();
    await user.click(createButton());
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent(/^An error occurred×?$/);
    await user.click(createButton());
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Not enough credits');
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the watermark notice and the site-URL tip, whose dismissal records enter_site_url', async () => {
    const { requests } = renderCreate({
      user: testUser({ flags: { showSiteUrlTooltip: true } }),
      api: {
        'GET /image-gen/status/gen-uuid-1': statusReply({
          status: 'completed',
          images: [generatedImage('a')],
          has_watermark: true,
        }),
        'POST /user/settings/close-tooltip': { body: { success: true } },
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    expect(screen.queryByText(/carry a watermark/)).not.toBeInTheDocument();
    await advance(2000);
    const watermark = screen.getByText(/Images made with free credits carry a watermark/);
    expect(within(watermark).getByRole('link', { name: 'See packages' })).toHaveAttribute('href', '/pricing');
    const tip = screen.getByText(/add your website URL/);
    expect(within(tip).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    const authChecksBefore = requestsTo(requests, 'GET', '/auth/me').length;
    // A plain click: user-event's own awaiting would let the refetch below answer outside act().
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss tip' }));
    expect(screen.queryByText(/add your website URL/)).not.toBeInTheDocument();
    await advance(0);
    expect(requestsTo(requests, 'POST', '/user/settings/close-tooltip')[0]?.json).toEqual({ name: 'enter_site_url' });
    // Then the user is fetched again, for the flag the server has now cleared.
    expect(requestsTo(requests, 'GET', '/auth/me')).toHaveLength(authChecksBefore + 1);
  });

  it('shows neither notice when the flags are off', async () => {
    renderCreate({
      api: { 'GET /image-gen/status/gen-uuid-1': statusReply({ status: 'completed', images: [generatedImage('a')] }) },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    expect(screen.getByRole('button', { name: 'Variation 1' })).toBeInTheDocument();
    expect(screen.queryByText(/carry a watermark/)).not.toBeInTheDocument();
    expect(screen.queryByText(/add your website URL/)).not.toBeInTheDocument();
  });

  it('moves between variations with a 50 px swipe on the large image', async () => {
    renderCreate({
      api: {
        'GET /image-gen/status/gen-uuid-1': statusReply({
          status: 'completed',
          images: [generatedImage('a'), generatedImage('b'), generatedImage('c')],
        }),
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    const stage = screen.getByTestId('selected-image');
    const swipe = (from: number, to: number) => {
      fireEvent.touchStart(stage, { touches: [{ clientX: from, clientY: 100 }] });
      fireEvent.touchEnd(stage, { changedTouches: [{ clientX: to, clientY: 100 }] });
    };
    const pressed = () => screen.getByRole('button', { pressed: true, name: /^Variation/ }).getAttribute('aria-label');
    swipe(300, 260);
    expect(pressed()).toBe('Variation 1');
    swipe(300, 250);
    expect(pressed()).toBe('Variation 2');
    swipe(300, 200);
    expect(pressed()).toBe('Variation 3');
    swipe(300, 100);
    expect(pressed()).toBe('Variation 3');
    swipe(100, 160);
    expect(pressed()).toBe('Variation 2');
  });

  it('folds the Generation Settings bar when creating and opens it again on a tap', async () => {
    renderCreate({ api: { 'GET /image-gen/status/gen-uuid-1': statusReply() } });
    const bar = await screen.findByRole('button', { name: /Generation Settings/ });
    expect(bar).toHaveAttribute('aria-expanded', 'true');
    await uploadAndAnalyse();
    await user.click(createButton());
    expect(bar).toHaveAttribute('aria-expanded', 'false');
    await user.click(bar);
    expect(bar).toHaveAttribute('aria-expanded', 'true');
  });

  it('opens Save Style Preset for the selected image with its category', async () => {
    const { requests } = renderCreate({
      api: {
        'GET /image-gen/status/gen-uuid-1': statusReply({
          status: 'completed',
          images: [generatedImage('a'), generatedImage('b')],
        }),
        'POST /style-presets': { body: { id: 'p9', preset_name: 'Warm wood', category_name: 'kitchen' } },
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    await user.click(screen.getByRole('button', { name: 'Variation 2' }));
    await user.click(screen.getByRole('button', { name: 'Save Style Preset' }));
    const dialog = screen.getByRole('dialog', { name: 'Save Style Preset' });
    expect(within(dialog).getByTestId('preset-category')).toHaveTextContent('Kitchenware');
    await user.type(within(dialog).getByLabelText('Preset Name'), 'Warm wood');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await advance(0);
    expect(requestsTo(requests, 'POST', '/style-presets')[0]?.json).toEqual({
      generation_uuid: GENERATION_UUID,
      image_index: 1,
      preset_name: 'Warm wood',
    });
    await advance(1000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('"Start over" clears photo, results and messages', async () => {
    renderCreate({
      api: {
        'GET /image-gen/status/gen-uuid-1': statusReply({
          status: 'completed',
          gen_error: 'One variation failed.',
          images: [generatedImage('a')],
        }),
      },
    });
    await uploadAndAnalyse();
    await startCreating();
    await advance(2000);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByAltText('Your product photo')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Variation 1' })).not.toBeInTheDocument();
    expect(screen.getByText('Your product photos will appear here')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
  });
});
