variable "env" {
  type    = string
  default = "dev"
}

resource "aws_dynamodb_table" "catalog" {
  name           = "catalog"
  billing_mode   = "PROVISIONED"
  read_capacity  = 8
  write_capacity = 2
  hash_key       = "sku"
  table_class    = "STANDARD_INFREQUENT_ACCESS"

  attribute {
    name = "sku"
    type = "S"
  }

  attribute {
    name = "category"
    type = "S"
  }

  global_secondary_index {
    name               = "by-category"
    hash_key           = "category"
    projection_type    = "INCLUDE"
    non_key_attributes = ["title", "price"]
    read_capacity      = 2
    write_capacity     = 2
  }

  point_in_time_recovery {
    enabled = true
  }

  tags = {
    Environment = var.env
  }
}

resource "aws_appautoscaling_target" "catalog_read" {
  max_capacity       = 40
  min_capacity       = 8
  resource_id        = "table/${aws_dynamodb_table.catalog.name}"
  scalable_dimension = "dynamodb:table:ReadCapacityUnits"
  service_namespace  = "dynamodb"
}

resource "aws_appautoscaling_policy" "catalog_read" {
  name               = "catalog-read"
  policy_type        = "TargetTrackingScaling"
  resource_id        = aws_appautoscaling_target.catalog_read.resource_id
  scalable_dimension = aws_appautoscaling_target.catalog_read.scalable_dimension
  service_namespace  = aws_appautoscaling_target.catalog_read.service_namespace

  target_tracking_scaling_policy_configuration {
    predefined_metric_specification {
      predefined_metric_type = "DynamoDBReadCapacityUtilization"
    }
    target_value = 70
  }
}

resource "aws_dynamodb_table" "audit" {
  name         = "audit-${var.env}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"

  attribute {
    name = "id"
    type = "S"
  }
}
