export { createBillingService, type BillingService, type BillingServiceDeps } from './service';
export {
  billingConfigSchema,
  distributedBillingConfigSchema,
  paymentProviderKind,
  DEV_CHECKOUT_WEBHOOK_SECRET,
  type BillingConfig,
} from './config';
export { billingQueues } from './messaging/consumers';
export { balanceChangedMessageId } from './messaging/publishers';
export { checkoutUrls } from './payments/checkouts';
export { signLikeStripe } from './payments/stripe-signature';
export { TEST_CARD_NUMBER, DECLINED_CARD_NUMBER } from './payments/dev-checkout-page';
export {
  SIGNUP_BONUS_DESCRIPTION,
  sourceRefs,
  planReservation,
  planPurchase,
  planSignupBonus,
  planImageRefund,
  entryBalances,
  sumOfEntries,
  type LedgerOperation,
  type PlannedEntry,
} from './domain/ledger';
export { checkoutEventTypes, interpretCheckoutEvent, type CheckoutSignal } from './domain/checkout-events';
export { ALREADY_REFUNDED_MESSAGE, REFUND_NOT_FOUND_MESSAGE, refundLimitMessage } from './domain/refund-policy';
