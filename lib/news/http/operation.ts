// The News API's operations: the News dialect of lib/http, counting responses with this
// container's status counters.
import { newsOperations } from '../../http/news.ts';
import { counters } from '../wiring.ts';

export const { newsDialect, newsOperation } = newsOperations(counters);
