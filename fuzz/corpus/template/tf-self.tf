resource "aws_dynamodb_table" "a" {
  name = aws_dynamodb_table.a.name
  count = var.n
}
variable "n" {
  default = 2
}
