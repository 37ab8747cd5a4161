import { problemText, validationErrors } from '../api/client';

/** An API error as the server put it: the problem's detail, and each validation message at its path. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const fields = validationErrors(error);
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title}: </strong>}
      {problemText(error)}
      {fields.length > 0 && (
        <ul className="field-errors">
          {fields.map((f) => (
            <li key={`${f.path}:${f.message}`}>
              <code>{f.path || '(body)'}</code> {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
