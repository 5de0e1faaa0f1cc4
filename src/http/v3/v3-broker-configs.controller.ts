// Confluent REST Proxy v3 broker config routes: the cluster-wide dynamic defaults (`broker-configs`, Kafka's BROKER
// resource with an empty name) and each live broker's configs (`brokers/{id}/configs`, `brokers/-/configs` for all).
// Each route: the cluster guard, the DTO pipe, one call. Rights: DESCRIBE_CONFIGS / ALTER_CONFIGS on the cluster
// (http/security/route-rights.ts).
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards, UsePipes } from '@nestjs/common';
import { BrokerConfigAdminService } from '../../application/admin/broker-config-admin.service.js';
import { BROKER_ID } from '../validation/path-params.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { AlterConfigsDto, UpdateConfigDto } from './configs.dto.js';
import { KnownClusterGuard } from './known-cluster.guard.js';

@Controller('v3/clusters')
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class V3BrokerConfigsController {
  constructor(private readonly brokerConfigs: BrokerConfigAdminService) {}

  @Get(':cluster_id/broker-configs')
  clusterConfigs() {
    return this.brokerConfigs.clusterConfigs();
  }

  @Post(':cluster_id/broker-configs::alter')
  @HttpCode(204)
  async alterClusterConfigs(@Body() body: AlterConfigsDto) {
    await this.brokerConfigs.alterClusterConfigs(body);
  }

  @Get(':cluster_id/broker-configs/:name')
  clusterConfig(@Param('name') name: string) {
    return this.brokerConfigs.clusterConfigByName(name);
  }

  @Put(':cluster_id/broker-configs/:name')
  @HttpCode(204)
  async putClusterConfig(@Param('name') name: string, @Body() body: UpdateConfigDto) {
    await this.brokerConfigs.setClusterConfig(name, body.value);
  }

  @Delete(':cluster_id/broker-configs/:name')
  @HttpCode(204)
  async deleteClusterConfig(@Param('name') name: string) {
    await this.brokerConfigs.deleteClusterConfig(name);
  }

  @Get(':cluster_id/brokers/-/configs')
  allBrokerConfigs() {
    return this.brokerConfigs.allBrokerConfigs();
  }

  @Get(':cluster_id/brokers/:broker_id/configs')
  brokerConfigList(@Param('broker_id', BROKER_ID) brokerId: number) {
    return this.brokerConfigs.brokerConfigList(brokerId);
  }

  @Post(':cluster_id/brokers/:broker_id/configs::alter')
  @HttpCode(204)
  async alterBrokerConfigs(@Param('broker_id', BROKER_ID) brokerId: number, @Body() body: AlterConfigsDto) {
    await this.brokerConfigs.alterBrokerConfigs(brokerId, body);
  }

  @Get(':cluster_id/brokers/:broker_id/configs/:name')
  brokerConfig(@Param('broker_id', BROKER_ID) brokerId: number, @Param('name') name: string) {
    return this.brokerConfigs.brokerConfigByName(brokerId, name);
  }

  @Put(':cluster_id/brokers/:broker_id/configs/:name')
  @HttpCode(204)
  async putBrokerConfig(
    @Param('broker_id', BROKER_ID) brokerId: number,
    @Param('name') name: string,
    @Body() body: UpdateConfigDto,
  ) {
    await this.brokerConfigs.setBrokerConfig(brokerId, name, body.value);
  }

  @Delete(':cluster_id/brokers/:broker_id/configs/:name')
  @HttpCode(204)
  async deleteBrokerConfig(@Param('broker_id', BROKER_ID) brokerId: number, @Param('name') name: string) {
    await this.brokerConfigs.deleteBrokerConfig(brokerId, name);
  }
}
