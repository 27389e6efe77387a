/**
 * Text shown as it is (JSON, a command) in a box that scrolls on its own: a named region that
 * keyboard users can reach to scroll (WCAG 2.1.1, axe's scrollable-region-focusable).
 */
export function CodeBlock({
  label,
  className,
  children,
}: {
  label: string;
  className?: string | undefined;
  children: string;
}) {
  return (
    <pre
      className={`json-preview__code${className ? ` ${className}` : ''}`}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </pre>
  );
}
