import express from 'express';
import {
  billingInternalRoutes,
  OUT_OF_CREDITS_MESSAGE,
  RESERVATION_CONFLICT_MESSAGE,
  type ReserveCreditsResponse,
} from '@productgen/contracts';
import { AppError, errorHandler, serveRoute } from '@productgen/service-kit';
import { LoopbackServers } from './loopback-servers';

/**
 * Billing's internal routes over an in-memory ledger, served from the contracts' declarations with the real
 * semantics (checked by the billing contract suite against both): all-or-nothing reservations; an accepted one is
 * remembered (a retry answers the same, another count or user is a 409), a refused one is not; one give-back per
 * charged image. Billing itself is another service.
 */
export class BillingFixture {
  readonly accounts = new Map<string, { credits: number; purchaser: boolean }>();
  readonly reservations = new Map<string, { userId: string; count: number; answer: ReserveCreditsResponse }>();
  readonly refunds = new Set<string>();
  readonly log: { userId: string; amount: number; description: string; generationUuid: string }[] = [];
  private readonly servers = new LoopbackServers();
  private origin: string | undefined;

  get url(): string {
    if (!this.origin) throw new Error('billing fixture not started');
    return this.origin;
  }

  account(userId: string, credits = 10, purchaser = false): void {
    this.accounts.set(userId, { credits, purchaser });
  }

  credits(userId: string): number {
    return this.accounts.get(userId)?.credits ?? 0;
  }

  private accountOf(userId: string): { credits: number; purchaser: boolean } {
    let account = this.accounts.get(userId);
    if (!account) {
      account = { credits: 0, purchaser: false };
      this.accounts.set(userId, account);
    }
    return account;
  }

  async start(): Promise<void> {
    const app = express();
    app.use(express.json());
    serveRoute(app, billingInternalRoutes.reserveCredits, ({ body }) => {
      const existing = this.reservations.get(body.generationUuid);
      if (existing) {
        if (existing.userId !== body.userId || existing.count !== body.count) {
          throw AppError.conflict(RESERVATION_CONFLICT_MESSAGE);
        }
        return existing.answer;
      }
      const account = this.accountOf(body.userId);
      if (account.credits < body.count) throw AppError.paymentRequired(OUT_OF_CREDITS_MESSAGE);
      account.credits -= body.count;
      const answer = { balance: account.credits, watermark: !account.purchaser };
      this.reservations.set(body.generationUuid, { userId: body.userId, count: body.count, answer });
      this.log.push({
        userId: body.userId,
        amount: -body.count,
        description: body.description ?? 'Image generation',
        generationUuid: body.generationUuid,
      });
      return answer;
    });
    serveRoute(app, billingInternalRoutes.giveBackCredit, ({ body }) => {
      const account = this.accountOf(body.userId);
      const key = `${body.generationUuid}:${body.imageIndex}`;
      const reservation = this.reservations.get(body.generationUuid);
      const refundable =
        reservation !== undefined &&
        reservation.userId === body.userId &&
        body.imageIndex < reservation.count &&
        !this.refunds.has(key);
      if (refundable) {
        this.refunds.add(key);
        account.credits += 1;
        this.log.push({ userId: body.userId, amount: 1, description: 'Refund', generationUuid: body.generationUuid });
      }
      return { balance: account.credits, refunded: refundable };
    });
    serveRoute(app, billingInternalRoutes.userBilling, ({ params }) => {
      const account = this.accounts.get(params.userId) ?? { credits: 0, purchaser: false };
      return { credits: account.credits, purchaser: account.purchaser };
    });
    serveRoute(app, billingInternalRoutes.reservationState, ({ params }) => {
      const account = this.accounts.get(params.userId) ?? { credits: 0, purchaser: false };
      const reservation = this.reservations.get(params.generationUuid);
      const charged = reservation !== undefined && reservation.userId === params.userId;
      return {
        state: charged ? ('charged' as const) : ('none' as const),
        images: charged ? reservation.count : 0,
        watermark: !account.purchaser,
      };
    });
    app.use(errorHandler());
    this.origin = await this.servers.listen(app);
  }

  async stop(): Promise<void> {
    await this.servers.close();
  }
}
