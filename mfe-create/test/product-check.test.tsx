import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { base64FromBytes, bytesFromBase64, decodeMaskPng, encodeMaskPng } from '../src/single/mask-png';
import { BRUSH_HINT, LOW_CONFIDENCE_MESSAGE } from '../src/single/CutoutStage';
import { LOCKED_NOTE, NAME_REQUIRED_MESSAGE } from '../src/single/ProductCheck';
import { ANALYSIS, advance, photoFile, renderCreate, requestsTo, statusReply } from './support';

// Issue 14: after analysis the seller checks the product's name, category and cut-out, and fixes them with the
// Keep / Remove brush; the corrections are saved with the photo before Create.

jest.mock('../src/shared/resize', () => ({
  ...jest.requireActual('../src/shared/resize'),
  resizeImageFile: jest.fn(async () => 'data:image/jpeg;base64,UkVTSVpFRA=='),
}));

const ALREADY_CREATED =
  'Images are already being made from this photo, so its cut-out, name and category can no longer change. Upload the photo again to change them.';
const MASK_WIDTH = 40;
const MASK_HEIGHT = 20;
const CUTOUT_PATH = `/image-gen/cutout/${ANALYSIS.generation_uuid}`;
const ANALYSIS_PATH = `/image-gen/analysis/${ANALYSIS.generation_uuid}`;

/** The analysis's mask: the right half kept, the left half removed. */
function analysisMask() {
  const data = new Uint8Array(MASK_WIDTH * MASK_HEIGHT);
  for (let y = 0; y < MASK_HEIGHT; y += 1) data.fill(255, y * MASK_WIDTH + MASK_WIDTH / 2, (y + 1) * MASK_WIDTH);
  return { data, width: MASK_WIDTH, height: MASK_HEIGHT };
}

function cutoutReply(lowConfidence = false) {
  return {
    body: {
      generation_uuid: ANALYSIS.generation_uuid,
      mask: base64FromBytes(encodeMaskPng(analysisMask())),
      width: MASK_WIDTH,
      height: MASK_HEIGHT,
      confidence: lowConfidence ? 0.7 : 0.98,
      low_confidence: lowConfidence,
      corrected: false,
    },
  };
}

let user: ReturnType<typeof userEvent.setup>;

beforeEach(() => {
  jest.useFakeTimers();
  user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  // jsdom has no 2D canvas; the brush then paints the mask without drawing it, which is what these tests read.
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

type Api = NonNullable<NonNullable<Parameters<typeof renderCreate>[0]>['api']>;

function renderWithCutout(lowConfidence = false, api: Api = {}) {
  return renderCreate({
    api: {
      [`GET ${CUTOUT_PATH}`]: cutoutReply(lowConfidence),
      [`PUT ${CUTOUT_PATH}`]: (request) => ({
        body: { ...cutoutReply(lowConfidence).body, mask: (request.json as { mask: string }).mask, corrected: true },
      }),
      'GET /image-gen/status/gen-uuid-1': statusReply(),
      ...api,
    },
  });
}

async function uploadAndAnalyse() {
  await user.upload(await screen.findByLabelText(/Upload a product photo/), photoFile());
  await screen.findByRole('button', { name: /the cut-out$/ });
}

const createButton = () => screen.getByRole('button', { name: /^(Create|Creating\.\.\.)$/ });
const cutoutPicture = () => screen.getByRole('img', { name: "Your product's cut-out", hidden: true });

/** A mouse's pointer event at (x, y); jsdom has no PointerEvent, so a MouseEvent carries the pointer's fields. */
function pointerEvent(type: string, x: number, y: number): MouseEvent {
  const event = new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0 });
  Object.defineProperties(event, { pointerId: { value: 7 }, pointerType: { value: 'mouse' } });
  return event;
}

/** One stroke of the brush from `from` to `to` (mask pixels: jsdom lays the canvas out at 0×0, taken as 1:1). */
function paint(from: { x: number; y: number }, to: { x: number; y: number }) {
  const canvas = cutoutPicture();
  fireEvent(canvas, pointerEvent('pointerdown', from.x, from.y));
  fireEvent(canvas, pointerEvent('pointermove', to.x, to.y));
  fireEvent(canvas, pointerEvent('pointerup', to.x, to.y));
}

describe('the product check after analysis', () => {
  it('shows the name and category to edit, and the brush folded away when the cut-out is confident', async () => {
    renderWithCutout();
    await uploadAndAnalyse();
    expect(screen.getByLabelText('Product name')).toHaveValue('coffee mug');
    expect(screen.getByLabelText('Category')).toHaveValue('kitchen');
    expect(
      within(screen.getByLabelText('Category'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Kitchenware', 'Fashion']);
    const toggle = screen.getByRole('button', { name: 'Fix the cut-out' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(LOW_CONFIDENCE_MESSAGE)).not.toBeInTheDocument();
    // Folded away: the cut-out shows, the tools do not, and the picture cannot be painted.
    expect(screen.getByRole('img', { name: "Your product's cut-out" })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Keep' })).not.toBeInTheDocument();
    paint({ x: 0.5, y: 5.5 }, { x: 19.5, y: 5.5 });

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(BRUSH_HINT)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Keep' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Medium' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
  });

  it('says when the cut-out is doubtful and opens the brush', async () => {
    renderWithCutout(true);
    await uploadAndAnalyse();
    expect(screen.getByRole('note')).toHaveTextContent(LOW_CONFIDENCE_MESSAGE);
    expect(screen.getByRole('button', { name: 'Fix the cut-out' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Keep' })).toBeVisible();
  });

  it('saves the painted mask before Create: Keep adds, Remove takes away, undo and reset work', async () => {
    const { requests } = renderWithCutout(true);
    await uploadAndAnalyse();

    // Keep across the removed left half, with the small brush (radius 0.3 px: one row of pixels).
    await user.click(screen.getByRole('button', { name: 'Small' }));
    paint({ x: 0.5, y: 5.5 }, { x: 19.5, y: 5.5 });
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeEnabled();
    // A stroke undone is gone; Reset goes back to the analysis's mask.
    paint({ x: 0.5, y: 9.5 }, { x: 19.5, y: 9.5 });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Undo' }));

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(screen.getByRole('button', { name: 'Large' }));
    paint({ x: 30.5, y: 15.5 }, { x: 30.5, y: 15.5 });

    await user.click(createButton());
    await advance(0);
    const saved = requestsTo(requests, 'PUT', CUTOUT_PATH);
    expect(saved).toHaveLength(1);
    const mask = decodeMaskPng(bytesFromBase64((saved[0]!.json as { mask: string }).mask));
    const at = (x: number, y: number) => mask.data[y * MASK_WIDTH + x];
    expect([mask.width, mask.height]).toEqual([MASK_WIDTH, MASK_HEIGHT]);
    expect(at(3, 5)).toBe(255); // kept by the first stroke (restored by undoing the reset)
    expect(at(3, 9)).toBe(0); // the undone stroke
    expect(at(3, 12)).toBe(0); // never painted
    expect(at(30, 15)).toBe(0); // removed (large brush: 0.09 × 40 / 2 = 1.8 px around the dot)
    expect(at(38, 2)).toBe(255); // untouched product
    // Saved first, then created.
    const order = requests.map((request) => `${request.method} ${request.path}`);
    expect(order.indexOf(`PUT ${CUTOUT_PATH}`)).toBeLessThan(order.indexOf('POST /imageGenFromId'));
    expect(requestsTo(requests, 'PATCH', ANALYSIS_PATH)).toHaveLength(0);
  });

  it('sends no mask when the seller painted nothing or undid every stroke', async () => {
    const { requests } = renderWithCutout(true);
    await uploadAndAnalyse();
    paint({ x: 2.5, y: 2.5 }, { x: 8.5, y: 2.5 });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await user.click(createButton());
    await advance(0);
    expect(requestsTo(requests, 'PUT', CUTOUT_PATH)).toHaveLength(0);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')).toHaveLength(1);
  });

  it("saves the seller's name and category; the category picks the presets", async () => {
    const { requests } = renderWithCutout(false, {
      [`PATCH ${ANALYSIS_PATH}`]: (request) => ({
        body: { ...ANALYSIS, ...(request.json as object) },
      }),
      'GET /style-presets': (request) => ({
        body: {
          success: true,
          presets:
            request.url.searchParams.get('category') === 'fashion'
              ? [{ id: 'p1', preset_name: 'Runway', category_name: 'fashion' }]
              : [],
        },
      }),
    });
    await uploadAndAnalyse();
    const name = screen.getByLabelText('Product name');
    await user.clear(name);
    expect(screen.getByText(NAME_REQUIRED_MESSAGE)).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    await user.type(name, '  Linen tote bag ');
    expect(screen.getByTestId('detected-product')).toHaveTextContent('Linen tote bag');

    await user.selectOptions(screen.getByLabelText('Category'), 'fashion');
    expect(screen.getByTestId('detected-category')).toHaveTextContent('Fashion');
    await user.click(await screen.findByRole('checkbox', { name: 'Runway' }));

    await user.click(createButton());
    await advance(0);
    expect(requestsTo(requests, 'PATCH', ANALYSIS_PATH).map((request) => request.json)).toEqual([
      { object: 'Linen tote bag', category: 'fashion' },
    ]);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')[0]?.json).toEqual({
      id: ANALYSIS.generation_uuid,
      numGenerates: 1,
      presets: ['p1'],
    });
    // Created: the corrections are saved with the photo and can no longer change.
    expect(await screen.findByText(LOCKED_NOTE)).toBeInTheDocument();
    expect(screen.getByLabelText('Product name')).toBeDisabled();
    expect(screen.getByLabelText('Category')).toBeDisabled();
  });

  it("shows the API's words when a correction is refused, and creates nothing", async () => {
    const { requests } = renderWithCutout(false, {
      [`PATCH ${ANALYSIS_PATH}`]: { status: 409, body: { code: 409, error: ALREADY_CREATED } },
    });
    await uploadAndAnalyse();
    await user.selectOptions(screen.getByLabelText('Category'), 'fashion');
    await user.click(createButton());
    await advance(0);
    expect(await screen.findByRole('alert')).toHaveTextContent(ALREADY_CREATED);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')).toHaveLength(0);
  });

  it('works without a cut-out (none found, or older photos): no brush, Create as before', async () => {
    const { requests } = renderWithCutout(false, {
      [`GET ${CUTOUT_PATH}`]: { status: 404, body: { code: 404, error: 'This photo has no cut-out to correct.' } },
    });
    await user.upload(await screen.findByLabelText(/Upload a product photo/), photoFile());
    expect(await screen.findByLabelText('Product name')).toHaveValue('coffee mug');
    await act(async () => undefined);
    expect(screen.queryByRole('button', { name: /the cut-out$/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(createButton());
    await advance(0);
    expect(requestsTo(requests, 'POST', '/imageGenFromId')).toHaveLength(1);
  });
});
