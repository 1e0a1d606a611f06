import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  giveBackCreditRequestSchema,
  OUT_OF_CREDITS_MESSAGE,
  reserveCreditsRequestSchema,
} from '@productgen/contracts';

/** Serves an express app on a free loopback port. */
export async function listen(app: express.Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Billing's three internal endpoints over an in-memory ledger, with billing's contract schemas: all-or-nothing
 * reservations keyed by generation, one give-back per image. Billing itself is another service.
 */
export class BillingFixture {
  readonly accounts = new Map<string, { credits: number; purchaser: boolean }>();
  readonly reservations = new Map<string, { userId: string; count: number; charges: number }>();
  readonly refunds = new Set<string>();
  readonly log: { userId: string; amount: number; description: string; generationUuid: string }[] = [];
  private server: { url: string; close(): Promise<void> } | undefined;

  get url(): string {
    if (!this.server) throw new Error('billing fixture not started');
    return this.server.url;
  }

  account(userId: string, credits = 10, purchaser = false): void {
    this.accounts.set(userId, { credits, purchaser });
  }

  credits(userId: string): number {
    return this.accounts.get(userId)?.credits ?? 0;
  }

  async start(): Promise<void> {
    const app = express();
    app.use(express.json());
    app.post('/internal/credits/reserve', (req, res) => {
      const body = reserveCreditsRequestSchema.parse(req.body);
      const account = this.accounts.get(body.userId) ?? { credits: 0, purchaser: false };
      const existing = this.reservations.get(body.generationUuid);
      if (existing) {
        res.json({ balance: account.credits, watermark: !account.purchaser });
        return;
      }
      if (account.credits < body.count) {
        res.status(402).json({ code: 402, error: OUT_OF_CREDITS_MESSAGE });
        return;
      }
      account.credits -= body.count;
      this.accounts.set(body.userId, account);
      this.reservations.set(body.generationUuid, { userId: body.userId, count: body.count, charges: 1 });
      this.log.push({
        userId: body.userId,
        amount: -body.count,
        description: body.description ?? 'Image generation',
        generationUuid: body.generationUuid,
      });
      res.json({ balance: account.credits, watermark: !account.purchaser });
    });
    app.post('/internal/credits/give-back', (req, res) => {
      const body = giveBackCreditRequestSchema.parse(req.body);
      const account = this.accounts.get(body.userId) ?? { credits: 0, purchaser: false };
      const key = `${body.generationUuid}:${body.imageIndex}`;
      const reservation = this.reservations.get(body.generationUuid);
      const refundable = reservation !== undefined && body.imageIndex < reservation.count && !this.refunds.has(key);
      if (refundable) {
        this.refunds.add(key);
        account.credits += 1;
        this.log.push({ userId: body.userId, amount: 1, description: 'Refund', generationUuid: body.generationUuid });
      }
      res.json({ balance: account.credits, refunded: refundable });
    });
    app.get('/internal/users/:userId/billing', (req, res) => {
      const account = this.accounts.get(req.params.userId) ?? { credits: 0, purchaser: false };
      res.json({ credits: account.credits, purchaser: account.purchaser });
    });
    this.server = await listen(app);
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
