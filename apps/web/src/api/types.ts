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
