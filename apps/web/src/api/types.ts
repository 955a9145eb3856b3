// Shapes the server returns (mirrors apps/server's zod schemas; the OpenAPI document at /api/openapi.json is the reference).

export interface UserInfo {
  id: string;
  username: string;
  nickname: string;
  role: number;
  ancestors: string;
  parentId: string | null;
  telephone: string;
  email: string;
  address: string;
  mark: string;
  lang: string;
  timeZone: string;
  expireAt: string | null;
}

export interface LoginData {
  userInfo: UserInfo;
  permissions: string[];
  /** What the account must do before anything else; while set, the web shows only that screen. */
  restriction?: 'changePassword' | 'enrolTotp' | null;
  totpEnabled?: boolean;
}

/** The answer of a correct password when the account uses two-factor sign-in (meta.code 210). */
export interface TotpStep {
  totpRequired: true;
  ticket: string;
}

export interface PublicConfig {
  appDownloadUrl: string;
  demoEnabled: boolean;
  environment: string;
}

export interface Page<T> {
  total: number;
  list: T[];
}
