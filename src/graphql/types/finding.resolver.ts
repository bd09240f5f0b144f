import { FieldResolver, Resolver, Root } from 'type-graphql';
import { isMessageKey, message, translate } from '../../i18n';
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
    const locale = currentLocale();
    if (finding.text) return translate(finding.text, locale);
    const general = `finding.${finding.code}`;
    return locale !== 'en' && isMessageKey(general) ? translate(message(general), locale) : finding.message;
  }
}
