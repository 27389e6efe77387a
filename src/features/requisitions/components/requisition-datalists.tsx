import { memo, useMemo, useSyncExternalStore } from 'react';
import {
  datalistId,
  mergeSuggestions,
  suggestedKeys,
  typedValuesStore,
  valuesFromRecords,
} from '@/features/requisitions/model/suggestions';
import type { OrgScope } from '@/shared/api/vms';
import { useRequisitionList } from '@/shared/requisitions';
import { useLocalStore } from '@/shared/storage/local-store';

/**
 * The id of the datalist the focused input points at (`list=`), or null.
 *
 * Only that list carries options: Chromium's autofill copies the options of every `list=` input
 * of a form to its browser process on each keystroke, in any field, so lists nobody is looking at
 * would make every keystroke slower (decision 022).
 */
function useFocusedList(): string | null {
  // Null while the app takes over the page drawn from its HTML (getServerSnapshot): a list with
  // options then would not match that page, and React would draw the form anew, losing the focus
  // of a field clicked into meanwhile. The focused field's list follows at once.
  return useSyncExternalStore(
    subscribeToFocus,
    () => listOf(document.activeElement),
    () => null,
  );
}

function subscribeToFocus(onChange: () => void): () => void {
  document.addEventListener('focusin', onChange);
  document.addEventListener('focusout', onChange);
  return () => {
    document.removeEventListener('focusin', onChange);
    document.removeEventListener('focusout', onChange);
  };
}

const listOf = (target: EventTarget | null) =>
  target instanceof HTMLInputElement ? target.getAttribute('list') : null;

/**
 * The suggestion lists the form's inputs point at (`list=`): values typed before in this browser,
 * then values of the client's requisitions. Rendered once per form; the inputs never depend on
 * them, so a slow or failed list changes nothing but the suggestions. Every list is in the page
 * (the inputs' `list=` always points at one), and the focused input's list has its options.
 */
export const RequisitionDatalists = memo(function RequisitionDatalists({
  orgs,
}: {
  orgs: OrgScope;
}) {
  const typed = useLocalStore(typedValuesStore(orgs.clientOrgId));
  const list = useRequisitionList(orgs);
  const suggestions = useMemo(
    () =>
      mergeSuggestions(
        typed,
        { orgid: [String(orgs.clientOrgId)] },
        list.data ? valuesFromRecords(list.data) : {},
      ),
    [typed, list.data, orgs.clientOrgId],
  );
  const focused = useFocusedList();
  return (
    <>
      {suggestedKeys.map((key) => {
        const id = datalistId(key);
        return (
          <datalist key={key} id={id}>
            {id === focused
              ? (suggestions[key] ?? []).map((value) => <option key={value} value={value} />)
              : null}
          </datalist>
        );
      })}
    </>
  );
});
