import type { Cutout } from '@productgen/contracts';
import { UsageQuota, usageWindowModel } from '@productgen/service-kit';
import { ANALYSIS_EXPIRED_MESSAGE } from '../src/creation';
import type { GenerationDocument } from '../src/data/schemas';
import { analysisQuotaMessage, cutoutSaveQuotaMessage } from '../src/domain/quota-messages';
import { as, demoPhoto, newUserId, serviceSuite } from './helpers';

/**
 * Security review item 5: the expensive routes' own limits. Per-user quotas on analysis and cut-out saves kept in
 * MongoDB (so every replica counts the same uses), a cut-out save that replaces the previous correction's file, and
 * analysed photos nobody created from removed with their files after ANALYSED_TTL_HOURS.
 */
describe('limits of the expensive routes', () => {
  const suite = serviceSuite({
    ANALYSIS_LIMIT_PER_WINDOW: '3',
    ANALYSIS_LIMIT_WINDOW_MINUTES: '10',
    CUTOUT_SAVE_LIMIT_PER_WINDOW: '3',
    CUTOUT_SAVE_LIMIT_WINDOW_MINUTES: '10',
  });
  const { stack } = suite;
  let mug: string;
  const windowMs = 10 * 60_000;

  beforeAll(async () => {
    mug = (await demoPhoto('mug.jpg')).toString('base64');
  }, 120_000);

  const generations = () => suite.app.connection.collection<GenerationDocument>('generations');
  const analyse = (userId: string) => as(suite.app.app, userId).post('/image-gen/category', { image: mug });

  test('analysis: at most the quota per user in the window, then 429 in words, counted across replicas', async () => {
    const seller = newUserId();
    const before = await generations().countDocuments();
    for (let k = 0; k < 2; k += 1) expect((await analyse(seller)).status).toBe(200);
    // Another replica of the service (its own connection) counts the same uses: this is the third.
    const replica = new UsageQuota(
      await usageWindowModel(await stack.connect('generation')),
      'analysis',
      { max: 3, windowMs },
      analysisQuotaMessage,
    );
    await replica.take(seller, new Date());

    const refused = await analyse(seller);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      error:
        'You have uploaded 3 photos in the last 10 minutes, the most we can analyse for one account. Please try again in 10 minutes.',
    });
    // POST /imageGen analyses too, and is refused the same way before anything is stored or charged.
    const direct = await as(suite.app.app, seller).post('/imageGen', { base64str: mug, numGenerates: 1 });
    expect(direct.status).toBe(429);
    expect(await generations().countDocuments()).toBe(before + 2);
    // Another user is not held up.
    expect((await analyse(newUserId())).status).toBe(200);
  }, 120_000);

  test('the window slides, and concurrent uses never exceed the quota', async () => {
    const quota = new UsageQuota(
      await usageWindowModel(suite.app.connection),
      'test-quota',
      { max: 4, windowMs },
      cutoutSaveQuotaMessage,
    );
    const user = newUserId();
    // Times from now on: the record's TTL (the window's end after the last use) must not remove it mid-test.
    const start = new Date();
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => quota.take(user, start)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(4);
    const refusal = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refusal?.status === 'rejected' && refusal.reason).toMatchObject({ status: 429 });
    // Still full just before the first uses leave the window; free again once they have.
    await expect(quota.take(user, at(9.9))).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('Please try again in a minute.'),
    });
    await expect(quota.take(user, at(10))).resolves.toBeUndefined();
  });

  test('cut-out saves: one mask file per photo however often it is saved; at most the quota, then 429', async () => {
    const seller = newUserId();
    const analysed = await analyse(seller);
    expect(analysed.status).toBe(200);
    const uuid = analysed.body.generation_uuid as string;
    const cutout = (await as(suite.app.app, seller).get(`/image-gen/cutout/${uuid}`)).body as Cutout;
    const matteKey = (await generations().findOne({ uuid }))!.cutout!.key;

    const keys: string[] = [];
    for (let k = 0; k < 3; k += 1) {
      const saved = await as(suite.app.app, seller).put(`/image-gen/cutout/${uuid}`, { mask: cutout.mask });
      expect(saved.status).toBe(200);
      keys.push((await generations().findOne({ uuid }))!.cutout!.key);
    }
    expect(new Set(keys).size).toBe(3);
    const store = stack.objectStore();
    // The last correction and the analysis matte are kept; the earlier corrections' files are gone.
    expect(await store.stat(keys[2]!)).not.toBeNull();
    expect(await store.stat(matteKey)).not.toBeNull();
    expect(await store.stat(keys[0]!)).toBeNull();
    expect(await store.stat(keys[1]!)).toBeNull();

    const refused = await as(suite.app.app, seller).put(`/image-gen/cutout/${uuid}`, { mask: cutout.mask });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(
      'You have saved 3 cut-out corrections in the last 10 minutes, the most we allow. Please try again in 10 minutes.',
    );
    expect((await generations().findOne({ uuid }))!.cutout!.key).toBe(keys[2]);
  }, 120_000);

  test('an analysed photo nobody created from expires: Create refuses it, the sweeper removes it and its files', async () => {
    const seller = newUserId();
    stack.billing.account(seller, 10, true);
    const [expiring, kept, created] = await Promise.all([analyse(seller), analyse(seller), analyse(seller)]);
    const uuidOf = (response: typeof expiring) => response.body.generation_uuid as string;
    const record = (uuid: string) => generations().findOne({ uuid });
    const ttl = (await record(uuidOf(kept)))!.expires_at!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    // A record the sweeper never reaches is removed by MongoDB a day after its expiry.
    const indexes = await generations().indexes();
    expect(indexes.find((index) => index.key.expires_at === 1)).toMatchObject({ expireAfterSeconds: 86_400 });

    // Create claims its photo for good: no expiry any more.
    const started = await as(suite.app.app, seller).post('/imageGenFromId', { id: uuidOf(created), numGenerates: 1 });
    expect(started.status).toBe(200);
    expect((await record(uuidOf(created)))!.expires_at).toBeNull();

    // A day passes for one photo, which the seller had corrected.
    const uuid = uuidOf(expiring);
    const cutout = (await as(suite.app.app, seller).get(`/image-gen/cutout/${uuid}`)).body as Cutout;
    expect((await as(suite.app.app, seller).put(`/image-gen/cutout/${uuid}`, { mask: cutout.mask })).status).toBe(200);
    const before = (await record(uuid))!;
    await generations().updateOne({ uuid }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const refused = await as(suite.app.app, seller).post('/imageGenFromId', { id: uuid, numGenerates: 1 });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe(ANALYSIS_EXPIRED_MESSAGE);
    expect(stack.billing.credits(seller)).toBe(9);

    const report = await suite.app.sweeper.sweep();
    expect(report.expired).toBe(1);
    expect(await record(uuid)).toBeNull();
    const store = stack.objectStore();
    const files = [before.original_key, before.cutout!.key, `generations/${uuid}/cutout/matte.png`];
    expect(new Set(files).size).toBe(3);
    for (const key of files) expect(await store.stat(key)).toBeNull();
    // The photo still within its time and the created one are untouched.
    for (const other of [uuidOf(kept), uuidOf(created)]) {
      const left = (await record(other))!;
      expect(await store.stat(left.original_key)).not.toBeNull();
    }
    expect((await suite.app.sweeper.sweep()).expired).toBe(0);
  }, 120_000);
});
