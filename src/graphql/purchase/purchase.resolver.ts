import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Contract, FamilyFarmer, FamilyFarmingOrganization, Municipality, Producer, Purchase } from '../../domain';
import { prefetched } from '../../services/raw-rows';
import { Context } from '../context';
import { ContractType } from '../contract/contract.type';
import { FamilyFarmerType } from '../family-farmer/family-farmer.type';
import { MunicipalityType } from '../municipality/municipality.type';
import { OrganizationType } from '../organization/organization.type';
import { ProducerType } from '../producer/producer.type';
import { RecordPurchaseInput } from './purchase.input';
import { PurchaseType } from './purchase.type';
import { Sql } from '../compiled/annotations';

@Resolver(() => PurchaseType)
export class PurchaseResolver {
  @Sql({ kind: 'lookup', entity: Purchase, arg: 'id' })
  @Query(() => PurchaseType, { nullable: true, description: 'A purchase by id; another producer\'s purchase is NOT_FOUND for a PRODUCER.' })
  purchase(@Arg('id', () => ID, { description: 'Purchase id.' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.purchases.get(ctx.actor, id);
  }

  @Mutation(() => [PurchaseType], { description: 'All or nothing: one bad item rejects the batch and nothing is written.' })
  recordPurchases(@Arg('input', () => [RecordPurchaseInput], { description: 'The purchases, in any number; refused whole on the first bad item.' }) input: RecordPurchaseInput[], @Ctx() ctx: Context) {
    return ctx.services.purchases.record(ctx.actor, input);
  }

  @Sql({ kind: 'one', entity: Producer, fk: 'producerId' })
  @FieldResolver(() => ProducerType, { description: 'Producer that bought.' })
  producer(@Root() p: Purchase, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(p.producerId);
  }

  @Sql({ kind: 'one', entity: FamilyFarmer, fk: 'familyFarmerId' })
  @FieldResolver(() => FamilyFarmerType, { nullable: true, description: 'The family farmer who sold the lot, for FAMILY_FARMER.' })
  familyFarmer(@Root() p: Purchase, @Ctx() ctx: Context) {
    if (p.familyFarmerId === null) return null;
    return prefetched<FamilyFarmer>(p, 'familyFarmer') ?? ctx.loaders.familyFarmer.load(p.familyFarmerId);
  }

  @Sql({ kind: 'one', entity: FamilyFarmingOrganization, fk: 'organizationId' })
  @FieldResolver(() => OrganizationType, { nullable: true, description: 'The cooperative or association that sold the lot, for COOPERATIVE or ASSOCIATION.' })
  organization(@Root() p: Purchase, @Ctx() ctx: Context) {
    return p.organizationId === null ? null : ctx.loaders.organization.load(p.organizationId);
  }

  @Sql({ kind: 'one', entity: Municipality, fk: 'originMunicipalityCode' })
  @FieldResolver(() => MunicipalityType, { description: 'Where the raw material was produced: decides the priority region (art. 6º I and III).' })
  originMunicipality(@Root() p: Purchase, @Ctx() ctx: Context) {
    return prefetched<Municipality>(p, 'originMunicipality') ?? ctx.loaders.municipality.load(p.originMunicipalityCode);
  }

  @Sql({ kind: 'one', entity: Contract, fk: 'contractId' })
  @FieldResolver(() => ContractType, { nullable: true, description: 'Contract the lot was bought under (art. 3º §2 II).' })
  contract(@Root() p: Purchase, @Ctx() ctx: Context) {
    return p.contractId === null ? null : ctx.loaders.contract.load(p.contractId);
  }
}
