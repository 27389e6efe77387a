import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useOrg } from '../../../shared/config/org-context';
import type { BatchKind } from '../model/batch-kind';
import type { LoadRequest } from '../model/load-requests';
import { requestLoad } from '../model/load-requests';

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
