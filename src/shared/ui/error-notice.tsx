/**
 * What went wrong, as an alert (read out at once) in the error notice's colours; nothing when
 * there is nothing to say.
 */
export function ErrorNotice({ message }: { message: string | null | undefined }) {
  return message ? (
    <p role="alert" className="notice notice--error">
      {message}
    </p>
  ) : null;
}
