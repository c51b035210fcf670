// Shapes of seed 000's User and Team exactly as the tables list them (no additional properties).
import type { Team, User } from '../identity/model.ts';

export const presentTeam = (t: Team) => ({
  id: t.id, ownerId: t.ownerId, name: t.name, logo: t.logo, path: t.path,
  description: t.description, visibility: t.visibility, upgraded: t.upgraded, createdAt: t.createdAt,
});

export const presentUser = (u: User, teams: Team[]) => ({
  id: u.id, email: u.email, name: u.name, userPath: u.userPath, photo: u.photo,
  teams: teams.map(presentTeam), upgraded: u.upgraded,
});
