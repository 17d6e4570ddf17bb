/**
 * True when Enter on `target` should stay in its field instead of sending the form: a text-like
 * input or a select. A file input's Enter opens the system dialog, a text area's is a new line and
 * a button's is a press: those stay. Shared by the running form (check-in-editor.ts) and the page
 * before the app runs (page-start.ts), so both keep Enter alike.
 */
export function keepsEnterInField(target: EventTarget | null): boolean {
  return (
    (target instanceof HTMLInputElement && target.type !== 'file') || target instanceof HTMLSelectElement
  );
}
