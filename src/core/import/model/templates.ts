import { z } from 'zod';
import type { MappingTemplate, PayloadKind } from '@/domain';
import type { LocalStore } from '@/shared/storage/local-store';
import { localStore, storageKey } from '@/shared/storage/local-store';

/**
 * Saved column mappings, per client org and kind: a file whose headers hold
 * every header a template names is mapped by it without a click (domain `chooseTemplate`).
 */
const templatesSchema: z.ZodType<MappingTemplate[]> = z.array(
  z.object({
    name: z.string().min(1),
    mapping: z.record(z.string(), z.string()),
    dateOrder: z.enum(['month-first', 'day-first']).optional(),
  }),
);

const none: MappingTemplate[] = [];

export function templatesStore(
  kind: PayloadKind,
  clientOrgId: number,
): LocalStore<MappingTemplate[]> {
  return localStore(storageKey('import-templates', kind, clientOrgId), templatesSchema, none);
}

/** The list with `template` saved: a template of the same name (any case) is replaced. */
export function withTemplate(
  list: readonly MappingTemplate[],
  template: MappingTemplate,
): MappingTemplate[] {
  const name = template.name.trim().toLowerCase();
  return [...list.filter((other) => other.name.trim().toLowerCase() !== name), template].sort(
    (a, b) => a.name.localeCompare(b.name),
  );
}
