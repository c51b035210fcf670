// Identity records as the domain sees them. Field names follow the Notes interface document's User and Team tables.
export type TeamVisibility = 'public' | 'private';
export type Role = 'admin';

export interface User {
  id: string;
  name: string;
  email: string | null;
  userPath: string;
  photo: string;
  biography: string | null;
  upgraded: boolean;
  roles: Role[];
  createdAt: number;
}

export interface Team {
  id: string;
  ownerId: string;
  name: string;
  logo: string;
  path: string;
  description: string | null;
  visibility: TeamVisibility;
  upgraded: boolean;
  createdAt: number;
}

export type { Principal } from '../domain/principal.ts';

/** SimpleUserProfile of the Notes interface document */
export const simpleProfile = (u: User) => ({
  name: u.name,
  userPath: u.userPath,
  photo: u.photo,
  biography: u.biography,
});
