import { FieldResolver, Resolver, Root } from 'type-graphql';
import { findingMessage } from '../../i18n/finding-message';
import { Finding } from '../../law/findings';
import { currentLocale } from '../../request-context';
import { FindingType } from './common';

/**
 * A finding's message in the caller's language (Accept-Language). A finding stored before its
 * text was kept (a month closed earlier) shows its code's general description in that language.
 */
@Resolver(() => FindingType)
export class FindingResolver {
  @FieldResolver(() => String, { description: 'What it means, for a person, in the language the caller asks for (Accept-Language: English or pt-BR).' })
  message(@Root() finding: Finding): string {
    return findingMessage(finding, currentLocale());
  }
}
