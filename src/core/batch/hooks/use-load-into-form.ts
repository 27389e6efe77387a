import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import type { LoadRequest } from '@/core/batch/model/load-requests';
import { requestLoad } from '@/core/batch/model/load-requests';
import { useOrg } from '@/shared/config/org-context';

/**
 * Loads an item into its kind's form (Edit in the tray, Fix in the results): leaves the request
 * for the form page and goes there. An item of another client org switches the org first, since
 * drafts and trays are kept per client org.
 */
export function useLoadIntoForm(kind: BatchKind) {
  const navigate = useNavigate();
  const location = useLocation();
  const { clientOrgId, setClientOrgId } = useOrg();
  return useCallback(
    (request: LoadRequest, itemClientOrgId: number = clientOrgId) => {
      if (itemClientOrgId !== clientOrgId) setClientOrgId(itemClientOrgId);
      requestLoad(kind.id, itemClientOrgId, request);
      const path = kind.formPath(request.wire);
      if (location.pathname !== path) void navigate(path);
    },
    [kind, clientOrgId, setClientOrgId, location.pathname, navigate],
  );
}
