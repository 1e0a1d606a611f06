import { randomUUID } from 'node:crypto';
import {
  authGoogleRequestSchema,
  bulkJobSchema,
  bulkJobStatusFilterSchema,
  bulkZipRequestSchema,
  checkoutRequestSchema,
  creditRecordSchema,
  generationSchema,
  generationStatusResponseSchema,
  imageGenFromIdRequestSchema,
  imageGenRequestSchema,
  parseWithIssues,
  referralSourceSchema,
  refundRequestSchema,
  stylePresetSaveSchema,
  userSchema,
  userSettingsSchema,
  type Generation,
} from '@productgen/contracts';

const uuid = randomUUID();
const pngBase64 = Buffer.from('\x89PNG\r\n\x1a\nfake').toString('base64');

function messagesOf(schema: Parameters<typeof parseWithIssues>[0], input: unknown): string[] {
  const result = parseWithIssues(schema, input, 'body');
  return result.success ? [] : result.issues.map((issue) => issue.message);
}

describe('generation requests', () => {
  test.each([1, 5])('numGenerates %i is accepted', (numGenerates) => {
    expect(imageGenRequestSchema.safeParse({ base64str: pngBase64, numGenerates }).success).toBe(true);
  });

  test.each([0, 6, 2.5, '3'])('numGenerates %p is rejected', (numGenerates) => {
    expect(imageGenRequestSchema.safeParse({ base64str: pngBase64, numGenerates }).success).toBe(false);
  });

  test('the range message names the field', () => {
    expect(messagesOf(imageGenRequestSchema, { base64str: pngBase64, numGenerates: 0 })).toEqual([
      'numGenerates must be between 1 and 5',
    ]);
    expect(messagesOf(imageGenRequestSchema, { base64str: pngBase64 })).toEqual(['numGenerates is required']);
  });

  test('a data-URL prefix is removed; text that is not base64 is rejected', () => {
    const parsed = imageGenRequestSchema.parse({ base64str: `data:image/png;base64,${pngBase64}`, numGenerates: 2 });
    expect(parsed.base64str).toBe(pngBase64);
    expect(messagesOf(imageGenRequestSchema, { base64str: 'not base64!', numGenerates: 2 })).toEqual([
      'base64str must be a base64-encoded image',
    ]);
  });

  test('up to 5 presets, one image per preset', () => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(imageGenFromIdRequestSchema.safeParse({ id: uuid, numGenerates: 5, presets: five }).success).toBe(true);
    expect(imageGenFromIdRequestSchema.safeParse({ id: uuid, numGenerates: 3 }).success).toBe(true);
    expect(messagesOf(imageGenFromIdRequestSchema, { id: uuid, numGenerates: 5, presets: [...five, 'f'] })).toContain(
      'presets can hold at most 5 style presets',
    );
    expect(messagesOf(imageGenFromIdRequestSchema, { id: uuid, numGenerates: 4, presets: ['a', 'b'] })).toEqual([
      'numGenerates must equal the number of style presets chosen',
    ]);
    expect(imageGenFromIdRequestSchema.safeParse({ id: uuid, numGenerates: 2, presets: ['a', 'a'] }).success).toBe(
      false,
    );
  });

  test('the id of imageGenFromId must be a generation uuid', () => {
    expect(messagesOf(imageGenFromIdRequestSchema, { id: 'nope', numGenerates: 1 })).toEqual([
      'id must be a valid UUID',
    ]);
  });
});

describe('bulk zip multipart fields', () => {
  const zipFile = { originalname: 'images.zip', mimetype: 'application/zip', size: 1234 };

  test('text fields are parsed: numGenerates as a number, presets as a JSON list', () => {
    const parsed = bulkZipRequestSchema.parse({ zipFile, numGenerates: '2', presets: '["p1","p2"]' });
    expect(parsed.numGenerates).toBe(2);
    expect(parsed.presets).toEqual(['p1', 'p2']);
  });

  test('bad fields give the SPEC wording or name the field', () => {
    expect(
      messagesOf(bulkZipRequestSchema, { zipFile: { ...zipFile, mimetype: 'text/plain' }, numGenerates: '1' }),
    ).toEqual(['Please upload a valid zip file.']);
    expect(messagesOf(bulkZipRequestSchema, { zipFile, numGenerates: '9' })).toEqual([
      'numGenerates must be between 1 and 5',
    ]);
    expect(messagesOf(bulkZipRequestSchema, { zipFile, numGenerates: '1', presets: '[oops' })).toEqual([
      'presets must be a JSON list of style preset ids',
    ]);
    expect(messagesOf(bulkZipRequestSchema, { numGenerates: '1' })).toEqual(['zipFile is required (one zip file)']);
  });
});

describe('style preset save payload', () => {
  const base = { generation_uuid: uuid, image_index: 0 };

  test('the name is trimmed and may be 255 characters', () => {
    const name = 'a'.repeat(255);
    expect(stylePresetSaveSchema.parse({ ...base, preset_name: `  ${name}  ` }).preset_name).toBe(name);
  });

  test.each([
    ['blank', '   ', 'preset_name must not be blank'],
    ['256 characters', 'b'.repeat(256), 'preset_name must be at most 255 characters'],
  ])('a %s name is rejected', (_case, presetName, message) => {
    expect(messagesOf(stylePresetSaveSchema, { ...base, preset_name: presetName })).toEqual([message]);
  });

  test('image_index must be an image of the generation', () => {
    expect(stylePresetSaveSchema.safeParse({ ...base, image_index: 5, preset_name: 'x' }).success).toBe(false);
  });
});

describe('refund request', () => {
  const base = { generationUuid: uuid, imageIndex: 1 };

  test('a reason is required and trimmed', () => {
    expect(refundRequestSchema.parse({ ...base, refundReason: '  blurry  ' }).refundReason).toBe('blurry');
    expect(messagesOf(refundRequestSchema, base)).toEqual(['refundReason is required']);
    expect(messagesOf(refundRequestSchema, { ...base, refundReason: ' \n ' })).toEqual([
      'refundReason must not be blank',
    ]);
    expect(refundRequestSchema.safeParse({ ...base, refundReason: 'x'.repeat(2001) }).success).toBe(false);
  });
});

describe('other request bodies', () => {
  test('sign-in needs a credential or an access token; ref_code may be null', () => {
    expect(authGoogleRequestSchema.safeParse({ credential: 'jwt', ref_code: null }).success).toBe(true);
    expect(authGoogleRequestSchema.safeParse({ access_token: 'tok', ref_code: 'abc' }).success).toBe(true);
    expect(messagesOf(authGoogleRequestSchema, { ref_code: null })).toEqual([
      'Sign-in needs either a credential (ID token) or an access_token.',
    ]);
  });

  test('checkout takes paid packages only', () => {
    expect(checkoutRequestSchema.safeParse({ package: 2 }).success).toBe(true);
    expect(messagesOf(checkoutRequestSchema, { package: 0 })).toEqual([
      'package must be 1, 2 or 3 (the Free tier cannot be bought)',
    ]);
  });

  test('site_url is an http(s) address or empty', () => {
    expect(userSettingsSchema.parse({ site_url: ' https://shop.example.com ' }).site_url).toBe(
      'https://shop.example.com',
    );
    expect(userSettingsSchema.safeParse({ site_url: '' }).success).toBe(true);
    expect(userSettingsSchema.safeParse({ site_url: 'javascript:alert(1)' }).success).toBe(false);
    expect(userSettingsSchema.safeParse({ site_url: 'shop' }).success).toBe(false);
  });

  test('referral source text is at most 255 characters', () => {
    expect(referralSourceSchema.safeParse({ source: 'Google Search' }).success).toBe(true);
    expect(referralSourceSchema.safeParse({ source: 'x'.repeat(256) }).success).toBe(false);
    expect(referralSourceSchema.safeParse({ source: '' }).success).toBe(false);
  });

  test('the bulk-jobs status filter is a comma-joined list of known statuses', () => {
    expect(bulkJobStatusFilterSchema.parse('pending, processing')).toEqual(['pending', 'processing']);
    expect(bulkJobStatusFilterSchema.safeParse('pending,lost').success).toBe(false);
  });
});

describe('answers', () => {
  const generation: Generation = {
    id: 'g1',
    generation_uuid: uuid,
    created_at: new Date().toISOString(),
    images: [{ id: 'i1', input_url: '/in.jpg', output_url: '/out.png', metadata: { fixes_done: [true, false] } }],
    metadata: { category: 'fashion', num_images: 1, status: 'processing', error: null },
    original_image_url: '/download/x/image/-1',
    original_filename: null,
  };

  test('a generation and a bulk job that contains it', () => {
    expect(generationSchema.parse(generation)).toEqual(generation);
    const job = {
      bulk_job_uuid: randomUUID(),
      status: 'processing',
      generations_done: 0,
      generations_total: 3,
      created_at: generation.created_at,
      thumbnails: [],
      has_watermark: true,
      generations: [generation],
    };
    expect(bulkJobSchema.parse(job)).toEqual(job);
    expect(bulkJobSchema.safeParse({ ...job, status: 'lost' }).success).toBe(false);
  });

  test('status response statuses are the four of SPEC §4', () => {
    const status = { analyzed: true, images: [], gen_error: null, status: 'completed', has_watermark: false };
    expect(generationStatusResponseSchema.safeParse(status).success).toBe(true);
    expect(generationStatusResponseSchema.safeParse({ ...status, status: 'done' }).success).toBe(false);
  });

  test('a user carries credits and flags', () => {
    const user = {
      id: 'u1',
      name: 'Ada',
      email: 'ada@example.com',
      picture: '',
      credits: 10,
      site_url: '',
      shop_context: [{ category_id: 'fashion', label: 'Dresses' }],
      flags: { is_first_generation: true, showSiteUrlTooltip: false },
    };
    expect(userSchema.parse(user)).toEqual(user);
    expect(userSchema.safeParse({ ...user, credits: -1 }).success).toBe(false);
  });

  test('credit records move by a positive amount in a stated direction', () => {
    const record = {
      id: 'c1',
      created_at: new Date().toISOString(),
      description: 'Signup bonus',
      generation_id: null,
      transaction_type: 'increase',
      amount: 10,
      balance_after: 10,
    };
    expect(creditRecordSchema.safeParse(record).success).toBe(true);
    expect(creditRecordSchema.safeParse({ ...record, amount: -10 }).success).toBe(false);
    expect(creditRecordSchema.safeParse({ ...record, transaction_type: 'gift' }).success).toBe(false);
  });
});
