import { memo, useMemo } from 'react';
import type { OrgScope } from '../../../shared/api/vms';
import { useLocalStore } from '../../../shared/storage/local-store';
import { useRequisitionList } from '../../../shared/config/use-requisition-list';
import {
  datalistId,
  mergeSuggestions,
  suggestedKeys,
  typedValuesStore,
  valuesFromRecords,
} from '../model/suggestions';

/**
 * The suggestion lists the form's inputs point at (`list=`): values typed before in this browser,
 * then values of the client's requisitions. Rendered once per form; the inputs never depend on
 * them, so a slow or failed list changes nothing but the suggestions.
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
  return (
    <>
      {suggestedKeys.map((key) => (
        <datalist key={key} id={datalistId(key)}>
          {(suggestions[key] ?? []).map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      ))}
    </>
  );
});
