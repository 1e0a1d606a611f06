import { formatUsd } from '@productgen/contracts';
import type { DevCheckoutSessionDocument } from '../data/models';

/*
 * The dev checkout's hosted page: plain HTML, one nonce'd stylesheet, no script. Everything interpolated is
 * escaped. The card form is for show and for tests: Stripe's test card numbers behave as they do there
 * (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined).
 */

export const TEST_CARD_NUMBER = '4242 4242 4242 4242';
export const DECLINED_CARD_NUMBER = '4000000000000002';

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Luhn check of a card number (digits only). */
export function isPlausibleCardNumber(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type CardCheck = { ok: true } | { ok: false; message: string; status: 400 | 402 };

export function checkTestCard(cardNumber: unknown): CardCheck {
  const digits = typeof cardNumber === 'string' ? cardNumber.replace(/[\s-]/g, '') : '';
  if (!isPlausibleCardNumber(digits)) return { ok: false, status: 400, message: 'Your card number is invalid.' };
  if (digits === DECLINED_CARD_NUMBER) return { ok: false, status: 402, message: 'Your card was declined.' };
  return { ok: true };
}

const STYLES = `
body { font-family: system-ui, sans-serif; background: #f6f7fb; color: #1a1f36; margin: 0; }
main { max-width: 420px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 32px;
  box-shadow: 0 4px 24px rgba(0,0,0,.08); }
h1 { font-size: 1.25rem; margin: 0 0 4px; }
.badge { display: inline-block; font-size: .75rem; background: #ffe8a3; border-radius: 4px; padding: 2px 6px; }
.amount { font-size: 2rem; font-weight: 700; margin: 16px 0; }
label { display: block; font-size: .875rem; margin: 12px 0 4px; }
input { width: 100%; box-sizing: border-box; padding: 10px; border: 1px solid #cfd7df; border-radius: 6px; font-size: 1rem; }
.row { display: flex; gap: 12px; } .row > div { flex: 1; }
button { width: 100%; margin-top: 20px; padding: 12px; border: 0; border-radius: 6px; background: #635bff; color: #fff;
  font-size: 1rem; cursor: pointer; }
.cancel { display: block; text-align: center; margin-top: 16px; color: #635bff; }
.error { color: #b3093c; background: #ffe3ea; padding: 8px 12px; border-radius: 6px; }
`;

export interface CheckoutPageOptions {
  nonce: string;
  /** Shown above the form after a declined or invalid card. */
  error?: string;
}

export function renderCheckoutPage(session: DevCheckoutSessionDocument, options: CheckoutPageOptions): string {
  const id = encodeURIComponent(session._id);
  const paid = session.payment_status === 'paid';
  const body = paid
    ? `<p>This checkout is already paid.</p><a class="cancel" href="${escapeHtml(session.success_url.replace('{CHECKOUT_SESSION_ID}', session._id))}">Continue</a>`
    : `${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/dev-checkout/${escapeHtml(id)}/pay">
  <label for="card_number">Card number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="${TEST_CARD_NUMBER}" required>
  <div class="row">
    <div><label for="expiry">Expiry</label><input id="expiry" name="expiry" value="12 / 34" required></div>
    <div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" value="123" required></div>
  </div>
  <label for="cardholder">Name on card</label>
  <input id="cardholder" name="cardholder" autocomplete="cc-name" value="Test Customer">
  <button type="submit">Pay ${escapeHtml(formatUsd(session.amount_cents))}</button>
</form>
<a class="cancel" href="${escapeHtml(session.cancel_url)}">Cancel</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Checkout: ${escapeHtml(session.product_name)}</title>
<style nonce="${escapeHtml(options.nonce)}">${STYLES}</style>
</head>
<body>
<main>
  <span class="badge">Test mode: no real payment</span>
  <h1>${escapeHtml(session.product_name)}</h1>
  <p class="amount">${escapeHtml(formatUsd(session.amount_cents))}</p>
  ${body}
</main>
</body>
</html>`;
}
