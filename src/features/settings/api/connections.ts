import { doctorReportSchema, type DoctorReport } from '@/domain/connection-check';
import { requestJson } from '@/shared/api/http';

/** The connection doctor, as `POST /api/connections/:name/check` offers it (admins). */
export async function checkConnection(name: string): Promise<DoctorReport> {
  return (
    await requestJson(
      `/api/connections/${encodeURIComponent(name)}/check`,
      doctorReportSchema,
      'Checking the connection',
      { method: 'POST', body: {} },
    )
  ).data;
}
