/**
 * Mobile area codes (spec, "Reference data": code such as +1, name, areaCode alpha-2, language,
 * enableGlobalTransfer).
 */

export interface MobileAreaCode {
  code: string;
  name: string;
  areaCode: string;
  language: 'zh_CN' | 'en_US';
  enableGlobalTransfer: boolean;
}

const ROWS: [string, string, string, boolean][] = [
  ['+1', 'United States', 'US', true],
  ['+1', 'Canada', 'CA', true],
  ['+44', 'United Kingdom', 'GB', true],
  ['+852', 'Hong Kong', 'HK', true],
  ['+65', 'Singapore', 'SG', true],
  ['+49', 'Germany', 'DE', true],
  ['+33', 'France', 'FR', true],
  ['+81', 'Japan', 'JP', true],
  ['+86', 'China', 'CN', false],
  ['+61', 'Australia', 'AU', true],
  ['+31', 'Netherlands', 'NL', true],
  ['+34', 'Spain', 'ES', true],
  ['+39', 'Italy', 'IT', true],
  ['+41', 'Switzerland', 'CH', true],
  ['+971', 'United Arab Emirates', 'AE', true],
  ['+82', 'South Korea', 'KR', true],
  ['+886', 'Taiwan', 'TW', true],
  ['+60', 'Malaysia', 'MY', true],
  ['+66', 'Thailand', 'TH', true],
  ['+63', 'Philippines', 'PH', true],
  ['+62', 'Indonesia', 'ID', true],
  ['+84', 'Vietnam', 'VN', true],
  ['+55', 'Brazil', 'BR', true],
  ['+52', 'Mexico', 'MX', true],
  ['+64', 'New Zealand', 'NZ', true],
  ['+353', 'Ireland', 'IE', true],
  ['+46', 'Sweden', 'SE', true],
  ['+351', 'Portugal', 'PT', true],
  ['+48', 'Poland', 'PL', true],
  ['+91', 'India', 'IN', false],
  ['+7', 'Russia', 'RU', false],
  ['+234', 'Nigeria', 'NG', false],
];

export const MOBILE_AREA_CODES: readonly MobileAreaCode[] = ROWS.map(
  ([code, name, areaCode, enableGlobalTransfer]) => ({
    code,
    name,
    areaCode,
    language: 'en_US',
    enableGlobalTransfer,
  }),
);
