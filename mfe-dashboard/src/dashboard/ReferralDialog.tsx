import { useState, type FormEvent } from 'react';
import { limits, REFERRAL_SOURCE_SKIPPED, referralSourceOptions } from '@productgen/contracts/limits';
import { usePlatformClient } from '@productgen/platform-client';
import { Button, Modal, TextField } from '@productgen/ui-kit';
import styles from './ReferralDialog.module.css';

/** SPEC §5/§9: the "Other" text is at most 255 characters, longer input is cut (the server takes no more). */
const REFERRAL_TEXT_MAX = limits.referralSourceMaxLength;

export interface ReferralDialogProps {
  open: boolean;
  /** Called once the answer (or "Skipped") was sent, whatever the server said. */
  onDone: () => void;
}

/**
 * The "how did you hear about us" survey (SPEC §4): a choice then Submit; Skip and closing the dialog both send
 * "Skipped". Failures are swallowed (SPEC §8): the survey closes either way.
 */
export function ReferralDialog({ open, onDone }: ReferralDialogProps) {
  const client = usePlatformClient();
  const [choice, setChoice] = useState<string | null>(null);
  const [otherText, setOtherText] = useState('');
  const [sending, setSending] = useState(false);

  const source = choice === 'Other' ? otherText.trim() : choice;
  const canSubmit = !!source && !sending;

  const send = async (answer: string) => {
    if (sending) return;
    setSending(true);
    try {
      await client.hearAboutSource(answer);
    } catch {
      // SPEC §8: referral failures are swallowed silently.
    } finally {
      setSending(false);
      onDone();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit && source) void send(source);
  };
  const skip = () => void send(REFERRAL_SOURCE_SKIPPED);

  return (
    <Modal
      open={open}
      onClose={skip}
      title="How did you hear about us?"
      footer={
        <>
          <Button variant="secondary" onClick={skip} disabled={sending}>
            Skip
          </Button>
          <Button type="submit" form="referral-form" disabled={!canSubmit}>
            Submit
          </Button>
        </>
      }
    >
      <form id="referral-form" className={styles.form} onSubmit={submit}>
        <fieldset className={styles.options}>
          <legend className={styles.legend}>Choose one</legend>
          {referralSourceOptions.map((option) => (
            <label key={option} className={styles.option}>
              <input
                type="radio"
                name="referral-source"
                value={option}
                checked={choice === option}
                onChange={() => setChoice(option)}
              />
              {option}
            </label>
          ))}
        </fieldset>
        {choice === 'Other' && (
          <TextField
            label="Please specify"
            value={otherText}
            maxLength={REFERRAL_TEXT_MAX}
            onChange={(event) => setOtherText(event.target.value.slice(0, REFERRAL_TEXT_MAX))}
          />
        )}
      </form>
    </Modal>
  );
}
