/** Occupations (spec, "Occupation": occupationCode, description) for B2C cardholders. */

export interface Occupation {
  occupationCode: string;
  description: string;
}

export const OCCUPATIONS: readonly Occupation[] = [
  ['11-1011', 'Chief Executives'],
  ['11-3031', 'Financial Managers'],
  ['13-2011', 'Accountants and Auditors'],
  ['15-1252', 'Software Developers'],
  ['17-2071', 'Electrical Engineers'],
  ['25-2021', 'Elementary School Teachers'],
  ['29-1141', 'Registered Nurses'],
  ['29-1215', 'Family Medicine Physicians'],
  ['23-1011', 'Lawyers'],
  ['27-1024', 'Graphic Designers'],
  ['41-2031', 'Retail Salespersons'],
  ['43-4051', 'Customer Service Representatives'],
  ['35-2014', 'Cooks, Restaurant'],
  ['47-2031', 'Carpenters'],
  ['53-3032', 'Heavy and Tractor-Trailer Truck Drivers'],
  ['19-1042', 'Medical Scientists'],
  ['39-9011', 'Childcare Workers'],
  ['00-0001', 'Self-employed / Business Owner'],
  ['00-0002', 'Student'],
  ['00-0003', 'Retired'],
  ['00-0004', 'Unemployed'],
].map(([occupationCode, description]) => ({ occupationCode: occupationCode!, description: description! }));
