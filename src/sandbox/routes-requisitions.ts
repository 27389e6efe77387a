import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DateFormat } from '@/domain';
import { parseWireDate } from '@/domain';
import { ApiError } from '@/domain/api-error';
import type { RequisitionFilterField } from '@/domain/vms-contract';
import {
  dateFilterConditions,
  requisitionFilterFields,
  requisitionFilterOperators,
} from '@/domain/vms-contract';
import { notAnOperator, operatorToVms, type VmsProfile } from '@/domain/vms-profile';
import { scopeOf } from './auth';
import type { Query } from './query';
import { optionalParam, parseQuery } from './query';
import { RequisitionAnswers } from './requisition-answers';
import type { RequisitionFilter, SandboxStore } from './store';

/** The store's column for each filter field of the interface. */
const filterColumns = {
  Req_Id: 'req_id',
  Req_Created_Date_Time: 'created_at',
  Req_Updated_Date_Time: 'updated_at',
} as const satisfies Record<RequisitionFilterField, string>;
const filterFieldNames = requisitionFilterFields.map(({ value }) => value);
const filterOperators = requisitionFilterOperators.map(({ value }) => value);

const filterParams = ['filterfield', 'filteroperator', 'filtervalue'] as const;

const fieldSchema = z.enum(filterFieldNames);
const operatorSchema = z.enum(filterOperators);
const reqIdSchema = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);
const dateTimeSchema = z.iso.datetime({ precision: 0 });

/** filterfield, filteroperator and filtervalue: all three or none, each from its fixed list. */
export function parseRequisitionFilter(
  query: Query,
  /** How the VMS the sandbox speaks writes each operator (the profile's words), for messages. */
  operatorName: (operator: string) => string = (operator) => operator,
): RequisitionFilter | undefined {
  const given = Object.fromEntries(filterParams.map((name) => [name, optionalParam(query, name)]));
  const present = filterParams.filter((name) => given[name] !== '');
  if (present.length === 0) return undefined;
  if (present.length < filterParams.length) {
    const missing = filterParams.filter((name) => given[name] === '');
    throw new ApiError(
      'missing_parameter',
      `The query parameter ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing; ` +
        'filterfield, filteroperator and filtervalue go together: give all three, or none to list every requisition.',
    );
  }
  const field = fieldSchema.safeParse(given.filterfield);
  if (!field.success) {
    throw new ApiError(
      'invalid_parameter',
      `filterfield '${given.filterfield}' is not a field you can filter on; use one of ` +
        `${filterFieldNames.join(', ')}.`,
    );
  }
  const operator = operatorSchema.safeParse(given.filteroperator);
  if (!operator.success) {
    throw new ApiError(
      'invalid_parameter',
      `filteroperator '${given.filteroperator?.replace(notAnOperator, '')}' is not supported; use one of ${filterOperators.map(operatorName).join(' ')}` +
        (operatorName('>=') === '>='
          ? ' (URL-encoded in the query string, e.g. %3E%3D for >=).'
          : '.'),
    );
  }
  const value = given.filtervalue ?? '';
  if (field.data === 'Req_Id') {
    const reqId = reqIdSchema.safeParse(value);
    if (!reqId.success) {
      throw new ApiError(
        'invalid_parameter',
        `filtervalue '${value}' is not a Req_Id; with filterfield Req_Id give a whole number, e.g. 40001.`,
      );
    }
    return { column: 'req_id', conditions: [{ operator: operator.data, value: reqId.data }] };
  }
  const column = filterColumns[field.data];
  const isoDate = parseWireDate(value, 'YYYY-MM-DD');
  if (isoDate) return { column, conditions: dateFilterConditions(operator.data, isoDate) };
  const dateTime = dateTimeSchema.safeParse(value);
  if (dateTime.success && value.endsWith('Z') && parseWireDate(value.slice(0, 10), 'YYYY-MM-DD')) {
    return { column, conditions: [{ operator: operator.data, value }] };
  }
  throw new ApiError(
    'invalid_parameter',
    `filtervalue '${value}' is not a date or a date-time; with filterfield ${field.data} give ` +
      'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), e.g. 2026-11-21 or 2026-11-21T19:31:00Z.',
  );
}

export function registerRequisitionRoutes(
  app: FastifyInstance,
  options: { store: SandboxStore; dateFormat: DateFormat; profile: VmsProfile },
): void {
  const answers = new RequisitionAnswers(options.dateFormat);
  const operatorName = (operator: string) => operatorToVms(options.profile, operator);
  app.get('/requisitions', async (request, reply) => {
    const scope = scopeOf(request);
    const filter = parseRequisitionFilter(parseQuery(request.query), operatorName);
    // Every requisition of the client (and its sub-orgs) is visible to each vendor serving it.
    const rows = options.store.listRequisitions(scope.clientOrgId, filter);
    return reply.type('application/json; charset=utf-8').send(answers.list(rows));
  });
}
