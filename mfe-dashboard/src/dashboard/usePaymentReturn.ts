import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { usePaymentReturnRefresh, usePlatformClient } from '@productgen/platform-client';

const PAYMENT_RETURN_PARAMS = ['payment', 'session_id'];

function isPaymentReturn(search: string): boolean {
  return new URLSearchParams(search).get('payment') === 'success';
}

/**
 * SPEC §4 return from payment: the payment check and the refreshes (platform-client), then the referral survey when
 * the user has not answered it yet. The address loses `payment=success` at once, so a reload does not repeat it;
 * the return is read from the address the page was opened at, so dropping the query does not stop the refreshes.
 * @returns whether the referral survey should show, and how to close it
 */
export function usePaymentReturn(signedIn: boolean): { surveyOpen: boolean; closeSurvey: () => void } {
  const client = usePlatformClient();
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const [returnUrl] = useState(() => new URL(`${pathname}${search}`, window.location.origin).href);
  const [returned] = useState(() => isPaymentReturn(search));
  const [surveyOpen, setSurveyOpen] = useState(false);
  usePaymentReturnRefresh({ url: returnUrl });

  useEffect(() => {
    if (!isPaymentReturn(search)) return;
    const rest = new URLSearchParams(search);
    for (const name of PAYMENT_RETURN_PARAMS) rest.delete(name);
    const query = rest.toString();
    navigate({ pathname, search: query ? `?${query}` : '', hash }, { replace: true });
  }, [navigate, pathname, search, hash]);

  useEffect(() => {
    if (!returned || !signedIn) return undefined;
    let current = true;
    // hasSeenHearAboutSource answers false on failure (SPEC §7), so a failing check shows the survey.
    void client.hasSeenHearAboutSource().then((hasSeen) => current && !hasSeen && setSurveyOpen(true));
    return () => {
      current = false;
    };
  }, [client, returned, signedIn]);

  return { surveyOpen, closeSurvey: () => setSurveyOpen(false) };
}
