// Response shapes exactly as the Notes interface document's tables list them: User, Team (no additional
// properties), Note (every listed field, nullables as null) and a single note (Note + content).
import { config } from '../../config.ts';
import type { Team, User } from '../../identity/model.ts';
import type { FolderPath, NoteRecord, NoteWithContent } from './model.ts';

export const presentTeam = (t: Team) => ({
  id: t.id,
  ownerId: t.ownerId,
  name: t.name,
  logo: t.logo,
  path: t.path,
  description: t.description,
  visibility: t.visibility,
  upgraded: t.upgraded,
  createdAt: t.createdAt,
});

export const presentUser = (u: User, teams: Team[]) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  userPath: u.userPath,
  photo: u.photo,
  teams: teams.map(presentTeam),
  upgraded: u.upgraded,
});

/** Where the note is published: /@<owner path>/<permalink> with a permalink, /<shortId> otherwise. */
export const publishLinkOf = (n: NoteRecord): string =>
  `${config.publicBaseUrl}/${n.permalink ? `@${n.userPath ?? n.teamPath}/${n.permalink}` : n.shortId}`;

/** A note's folderPaths as one viewer may see them (read by the folders service's pathsFor). */
export type PathOf = (note: NoteRecord) => FolderPath[];

export const presentNote = (n: NoteRecord, folderPaths: FolderPath[] = []) => ({
  id: n.id,
  title: n.title,
  tags: n.tags,
  description: n.description,
  createdAt: n.createdAt,
  lastChangedAt: n.lastChangedAt,
  titleUpdatedAt: n.titleUpdatedAt,
  tagsUpdatedAt: n.tagsUpdatedAt,
  lastChangeUser: n.lastChangeUser,
  publishType: n.publishType,
  publishedAt: n.publishedAt,
  userPath: n.userPath,
  teamPath: n.teamPath,
  permalink: n.permalink,
  publishLink: publishLinkOf(n),
  shortId: n.shortId,
  readPermission: n.readPermission,
  writePermission: n.writePermission,
  folderPaths,
});

export const presentSingleNote = ({ note, content }: NoteWithContent, folderPaths: FolderPath[] = []) => ({
  ...presentNote(note, folderPaths),
  content,
});
