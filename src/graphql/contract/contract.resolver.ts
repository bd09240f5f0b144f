import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Contract, FamilyFarmer, FamilyFarmingOrganization, Producer } from '../../domain';
import { Context } from '../context';
import { FamilyFarmerType } from '../family-farmer/family-farmer.type';
import { OrganizationType } from '../organization/organization.type';
import { ProducerType } from '../producer/producer.type';
import { CreateContractInput } from './contract.input';
import { ContractType } from './contract.type';
import { Sql } from '../compiled/annotations';

@Resolver(() => ContractType)
export class ContractResolver {
  @Sql({ kind: 'lookup', entity: Contract, arg: 'id' })
  @Query(() => ContractType, { nullable: true, description: 'A contract by id; another producer\'s contract is NOT_FOUND for a PRODUCER.' })
  contract(@Arg('id', () => ID, { description: 'Contract id.' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.contracts.get(ctx.actor, id);
  }

  @Mutation(() => ContractType, { description: 'Record a purchase contract (ADMIN, or the PRODUCER itself).' })
  createContract(@Arg('input', { description: 'The contract.' }) input: CreateContractInput, @Ctx() ctx: Context) {
    return ctx.services.contracts.create(ctx.actor, input);
  }

  @Sql({ kind: 'one', entity: Producer, fk: 'producerId' })
  @FieldResolver(() => ProducerType, { description: 'Producer that buys.' })
  producer(@Root() c: Contract, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(c.producerId);
  }

  @Sql({ kind: 'one', entity: FamilyFarmer, fk: 'familyFarmerId' })
  @FieldResolver(() => FamilyFarmerType, { nullable: true, description: 'The family farmer counterparty, when the contract is with one (art. 3º §2 II).' })
  familyFarmer(@Root() c: Contract, @Ctx() ctx: Context) {
    return c.familyFarmerId === null ? null : ctx.loaders.familyFarmer.load(c.familyFarmerId);
  }

  @Sql({ kind: 'one', entity: FamilyFarmingOrganization, fk: 'organizationId' })
  @FieldResolver(() => OrganizationType, { nullable: true, description: 'The cooperative or association counterparty, when the contract is with one (art. 3º §2 II).' })
  organization(@Root() c: Contract, @Ctx() ctx: Context) {
    return c.organizationId === null ? null : ctx.loaders.organization.load(c.organizationId);
  }
}
