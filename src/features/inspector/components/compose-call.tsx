import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId, useRef, useState } from 'react';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { SaveAsCases } from '@/core/suites/components/save-as-cases';
import {
  requisitionFilterFields,
  requisitionFilterOperators,
  vmsOperations,
  type VmsOperation,
} from '@/domain/vms-contract';
import { journalKeys } from '@/features/inspector/api/journal';
import {
  composedItems,
  composedPath,
  isResults,
  methodOf,
  type ComposedCall,
} from '@/features/inspector/model/compose';
import { errorMessage, requestText, type TextAnswer } from '@/shared/api/http';
import { useOrg } from '@/shared/config/org-context';
import { prettyJson } from '@/shared/lib/format';
import { newId } from '@/shared/lib/ids';
import { CodeBlock } from '@/shared/ui/code-block';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { OptionSelect } from '@/shared/ui/option-select';

const emptyBatch = '[\n  {}\n]';

/**
 * Any VMS operation composed by hand and sent through the portal's proxy, so it is signed, its
 * orgs are checked and it is journaled like every other call: a list read with a filter, a
 * batch's results by its id, a batch's body as typed. The answer shows whatever its status.
 */
export function ComposeCall({ kinds }: { kinds: readonly BatchKind[] }) {
  const { clientOrgId, vendorOrgId } = useOrg();
  const queryClient = useQueryClient();
  const formId = useId();
  const [operation, setOperation] = useState<VmsOperation>('requisitions');
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<{ path: string; reply: TextAnswer } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const method = methodOf(operation);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const kind = kinds.find((candidate) => candidate.postOperation === operation);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    const call: ComposedCall = {
      operation,
      clientOrgId: text('clientOrgId'),
      vendorOrgId: text('vendorOrgId'),
      filterField: text('filterField'),
      filterOperator: text('filterOperator'),
      filterValue: text('filterValue'),
      batchId: text('batchId'),
      extraQuery: text('extraQuery'),
      body: text('body'),
    };
    const path = composedPath(call);
    setSending(true);
    setFailure(null);
    setAnswer(null);
    try {
      const reply = await requestText(path, `Sending ${method} ${operation}`, {
        method,
        // A batch is a new one each time it is sent from here: a new key, never a replay.
        ...(method === 'POST' ? { text: call.body, headers: { 'Idempotency-Key': newId() } } : {}),
      });
      setAnswer({ path, reply });
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
      await queryClient.invalidateQueries({ queryKey: journalKeys.all });
    }
  };

  return (
    <form
      className="inspector__compose"
      aria-label="Compose a call"
      onSubmit={(event) => void onSubmit(event)}
    >
      <p className="field__hint">
        Sent through the portal like any call: signed, its orgs checked, and recorded here. A POST
        is a new batch at the VMS, with a new idempotency key.
      </p>
      <div className="inspector__compose-fields">
        <div className="field">
          <label htmlFor={`${formId}-operation`}>Operation to send</label>
          <OptionSelect<VmsOperation>
            id={`${formId}-operation`}
            value={operation}
            options={vmsOperations.map((candidate) => ({
              value: candidate.name,
              label: `${candidate.method} ${candidate.name}`,
            }))}
            onChange={setOperation}
          />
        </div>
        <div className="field">
          <label htmlFor={`${formId}-client`}>Client org id</label>
          <input
            id={`${formId}-client`}
            name="clientOrgId"
            inputMode="numeric"
            defaultValue={String(clientOrgId)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${formId}-vendor`}>Vendor org id</label>
          <input
            id={`${formId}-vendor`}
            name="vendorOrgId"
            inputMode="numeric"
            defaultValue={String(vendorOrgId)}
          />
        </div>
        {operation === 'requisitions' ? (
          <>
            <div className="field">
              <label htmlFor={`${formId}-field`}>Filter field</label>
              <select id={`${formId}-field`} name="filterField" defaultValue="Req_Id">
                {requisitionFilterFields.map((field) => (
                  <option key={field.value} value={field.value}>
                    {field.label} ({field.value})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${formId}-operator`}>Filter operator</label>
              <select id={`${formId}-operator`} name="filterOperator" defaultValue="=">
                {requisitionFilterOperators.map((operator) => (
                  <option key={operator.value} value={operator.value}>
                    {operator.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${formId}-value`}>Filter value (empty: no filter)</label>
              <input id={`${formId}-value`} name="filterValue" />
            </div>
          </>
        ) : null}
        {isResults(operation) ? (
          <div className="field">
            <label htmlFor={`${formId}-batch`}>Batch id of the results</label>
            <input id={`${formId}-batch`} name="batchId" />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${formId}-extra`}>Other query parameters</label>
          <input id={`${formId}-extra`} name="extraQuery" placeholder="name=value&name=value" />
        </div>
      </div>
      {method === 'POST' ? (
        <div className="field">
          <label htmlFor={`${formId}-body`}>Body to send (JSON, as typed)</label>
          <textarea
            id={`${formId}-body`}
            name="body"
            ref={bodyRef}
            rows={8}
            spellCheck={false}
            className="inspector__code"
            defaultValue={emptyBatch}
          />
        </div>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button" disabled={sending}>
          {sending ? 'Sending…' : `Send ${method} ${operation}`}
        </button>
        {kind ? (
          <SaveAsCases
            kind={kind}
            label="Save the body as cases…"
            items={() =>
              composedItems(bodyRef.current?.value ?? '').map((entry) => ({
                ...entry,
                expect: null,
              }))
            }
          />
        ) : null}
      </div>
      <ErrorNotice message={failure} />
      {answer ? (
        <>
          <p role="status">
            {`Answered ${answer.reply.status} to ${answer.path}`}
            {answer.reply.status >= 200 && answer.reply.status < 300
              ? '; the call is recorded in the journal.'
              : ': a refusal, shown as it came; the call is recorded in the journal.'}
          </p>
          <CodeBlock label="Answer to the composed call" className="inspector__code">
            {prettyJson(answer.reply.text)}
          </CodeBlock>
        </>
      ) : null}
    </form>
  );
}
