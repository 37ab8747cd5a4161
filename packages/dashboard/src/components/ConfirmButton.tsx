import { useRef, useState, type ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';

interface Props {
  /** The button's label, also its accessible name. */
  label: string;
  /** The dialog's heading. */
  title: string;
  /** What will happen: shown before the person confirms. */
  children: ReactNode;
  /** The confirming button's label (defaults to `label`). */
  confirmLabel?: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm(): Promise<unknown>;
}

/** A button that asks first, in a modal <dialog>, and shows the API's problem if the action fails. */
export function ConfirmButton({ label, title, children, confirmLabel, danger, disabled, onConfirm }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const headingId = `confirm-${label.replace(/\W+/g, '-').toLowerCase()}`;

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className={danger ? 'danger' : undefined} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={headingId} onClose={() => setError(null)}>
        <h2 id={headingId}>{title}</h2>
        <div className="dialog-body">{children}</div>
        <ErrorNotice error={error} />
        <div className="actions">
          <button type="button" onClick={() => dialog.current?.close()} disabled={busy}>
            Keep it
          </button>
          <button type="button" className={danger ? 'danger' : 'primary'} onClick={confirm} disabled={busy}>
            {confirmLabel ?? label}
          </button>
        </div>
      </dialog>
    </>
  );
}
