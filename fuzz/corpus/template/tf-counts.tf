variable "env" {
  default = "prod"
}
variable "enabled" {
  default = true
}
locals {
  prefix = "${var.env}-shop"
}
resource "aws_dynamodb_table" "orders" {
  name         = "${local.prefix}-orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
}
resource "aws_dynamodb_table" "shards" {
  count        = 3
  name         = "shard-${count.index}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
}
resource "aws_dynamodb_table" "none" {
  count        = 0
  name         = "never"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
}
resource "aws_dynamodb_table" "maybe" {
  count        = var.enabled ? 1 : 0
  name         = "maybe"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
  dynamic "global_secondary_index" {
    for_each = var.gsis
    content {
      name = global_secondary_index.value
    }
  }
}
resource "aws_dynamodb_table" "each" {
  for_each     = toset(["a", "b"])
  name         = "each-${each.key}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
}
resource "aws_dynamodb_table" "each2" {
  for_each     = { x = "1", y = "2" }
  name         = "e2-${each.key}-${each.value}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
}
