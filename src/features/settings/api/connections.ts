import { doctorReportSchema, type DoctorReport } from '@/domain/connection-check';
import {
  profileDraftSchema,
  type ProfileDraft,
  type SignatureExample,
} from '@/domain/profile-draft';
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

/** A profile drafted from the VMS's answers, as `POST /api/connections/:name/draft-profile` offers it (admins). */
export async function draftConnectionProfile(
  name: string,
  example: SignatureExample | undefined,
  sendTest = false,
): Promise<ProfileDraft> {
  return (
    await requestJson(
      `/api/connections/${encodeURIComponent(name)}/draft-profile`,
      profileDraftSchema,
      'Drafting a profile',
      {
        method: 'POST',
        body: { ...(example !== undefined && { example }), ...(sendTest && { sendTest }) },
      },
    )
  ).data;
}
