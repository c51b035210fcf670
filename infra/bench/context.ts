export interface TestUserLike { id: string; name: string; userPath: string; token: string }
